package notify

import (
	"context"
	"testing"

	"posbox/notify/smtptest"
	"posbox/store"
)

// Settings saved from the console win over the configuration file's and
// apply to the next send of the running dispatcher; ChannelSetup says
// where each channel's settings come from.
func TestSavedEmailSettingsOverrideTheConfigFile(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	fromFile, fromConsole := smtptest.Start(t, smtptest.Options{}), smtptest.Start(t, smtptest.Options{})
	d := e.dispatcher(t, map[string]Sender{store.ChannelEmail: emailSender(t, plainConfig(fromFile)),
		store.ChannelSMS: smsSender(t, SMSConfig{})})
	setup, err := d.ChannelSetup(ctx, e.rest.ID)
	if err != nil || setup[store.ChannelEmail] != store.SettingsFromConfig || setup[store.ChannelSMS] != store.SettingsNone {
		t.Fatalf("setup %v, %v", setup, err)
	}
	e.rule(t, store.ChannelEmail, "new_order", "chef@trattoria.example")
	e.event(t, "new_order", map[string]any{"order_number": 1})
	runOnce(t, d)
	if len(fromFile.Received()) != 1 {
		t.Fatalf("config file's relay got %d mails", len(fromFile.Received()))
	}

	if _, err := e.st.PutEmailSettings(ctx, e.rest.ID, store.EmailSettingsInput{Host: store.Of("127.0.0.1"), Port: store.Of(fromConsole.Port()),
		From: store.Of("kasse@trattoria.example"), TLS: store.Of("none")}); err != nil {
		t.Fatal(err)
	}
	e.event(t, "new_order", map[string]any{"order_number": 2})
	runOnce(t, d)
	if len(fromConsole.Received()) != 1 || len(fromFile.Received()) != 1 {
		t.Fatalf("after saving: console relay %d, file relay %d mails", len(fromConsole.Received()), len(fromFile.Received()))
	}
	if setup, _ := d.ChannelSetup(ctx, e.rest.ID); setup[store.ChannelEmail] != store.SettingsFromConsole {
		t.Fatalf("setup %v", setup)
	}
}
