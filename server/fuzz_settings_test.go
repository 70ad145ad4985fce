package server

import "testing"

// The email and SMS settings' bodies (TestEveryBodyRouteIsFuzzed).

func FuzzPutEmailSettings(f *testing.F) {
	e := newTestEnv(f)
	fuzzRoute(f, fuzzTarget{e: e, method: "PUT", path: fixed("/api/settings/email"), token: e.adminToken},
		`{"host":"smtp.example.com","port":587,"username":"kasse","password":"geheim","from":"kasse@example.com","tls":"starttls"}`,
		`{"host":"127.0.0.1","from":"a@b.example","tls":"none"}`, `{"host":"smtp.example.com","from":"a@b.example"}`,
		`{"host":"smtp://x:25","port":70000,"from":"Name <a@b>","tls":"ssl"}`, `{"host":null,"password":null}`, `{"password_set":true}`)
}

func FuzzPutSMSSettings(f *testing.F) {
	e := newTestEnv(f)
	fuzzRoute(f, fuzzTarget{e: e, method: "PUT", path: fixed("/api/settings/sms"), token: e.adminToken},
		`{"provider":"twilio","account":"AC123","token":"secret","from":"+4915112345678"}`,
		`{"provider":"generic","url":"http://192.168.1.20:8080/send","token":"t"}`, `{"provider":"generic"}`,
		`{"provider":"fax","url":"ftp://x"}`, `{"provider":null,"token":null}`, `{"token_set":true}`)
}
