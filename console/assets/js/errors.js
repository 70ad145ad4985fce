// Error texts: every problem code the API answers (perr.<code>) and every
// field error code (ferr.<code>, docs/API.md "Errors"), in German and
// English. The console never shows the API's English detail or message:
// an unknown code falls back to a sentence with the HTTP status.
// Tests check that each code of the server has its text here.
import { addStrings, t, has } from './i18n.js';
import { fmtDay, fmtTime, fmtNumber, localDate } from './format.js';

addStrings({
  de: {
    // Problems (the answer's top-level code).
    'perr.network': 'Die posbox ist nicht erreichbar. Bitte die Verbindung prüfen.',
    'perr.unauthenticated': 'Die Anmeldung ist abgelaufen oder ungültig. Bitte erneut anmelden.',
    'perr.forbidden': 'Dafür fehlen die Rechte.',
    'perr.auditor_not_allowed': 'Der Prüfzugang zeigt nur die Steuerdaten; das hier gehört nicht dazu.',
    'perr.auditor_access_ended': 'Dieser Prüfzugang ist abgelaufen. Bitte wenden Sie sich an den Betrieb, wenn Sie weiter prüfen müssen.',
    'perr.not_found': 'Diesen Eintrag gibt es nicht (mehr). Vielleicht wurde er gerade gelöscht; bitte die Seite aktualisieren.',
    'perr.method_not_allowed': 'Die posbox kann das so nicht ausführen ({status}).',
    'perr.malformed_json': 'Die Anfrage war fehlerhaft ({status}). Bitte die Seite neu laden.',
    'perr.unknown_field': 'Die Anfrage war fehlerhaft ({status}). Bitte die Seite neu laden.',
    'perr.unsupported_media_type': 'Die Anfrage war fehlerhaft ({status}). Bitte die Seite neu laden.',
    'perr.request_too_large': 'Die Eingabe ist zu groß.',
    'perr.validation_failed': 'Bitte die markierten Felder prüfen.',
    'perr.conflict': 'Jemand hat das gerade gleichzeitig geändert. Bitte die Seite aktualisieren und es erneut versuchen.',
    'perr.already_clocked_in': 'Diese Person ist schon eingestempelt.',
    'perr.not_clocked_in': 'Diese Person ist nicht eingestempelt.',
    'perr.shift_overlap': 'Die Schicht überschneidet sich mit einer anderen Schicht derselben Person.',
    'perr.shift_overlap_with': 'Die Schicht überschneidet sich mit der Schicht von {name}, {when}.',
    'perr.last_admin': 'Das ist der letzte aktive Administrator. Bitte zuerst einen anderen Administrator anlegen.',
    'perr.user_active': 'Nur die Daten einer deaktivierten Person können gelöscht werden. Bitte zuerst deaktivieren.',
    'perr.user_erased': 'Die persönlichen Daten dieser Person wurden schon gelöscht.',
    'perr.user_clocked_in': 'Diese Person ist noch eingestempelt. Bitte zuerst die offene Arbeitszeit unter „Arbeitszeiten“ beenden, dann die Daten löschen.',
    'perr.already_cancelled': 'Dieser Beleg ist bereits storniert. Ein Beleg kann nur einmal storniert werden.',
    'perr.registration_incomplete': 'Für die Meldung ans Finanzamt fehlen noch Angaben in den Stammdaten.',
    'perr.event_type_reserved': 'Dieses Ereignis meldet die posbox selbst; die Kasse kann es nicht senden.',
    'perr.channel_not_configured': 'Dieser Kanal ist noch nicht eingerichtet. Bitte zuerst unter „Einstellungen“ einrichten oder die Regel ausgeschaltet anlegen.',
    'perr.time_entry_closed': 'Dieser Eintrag wurde inzwischen abgeschlossen. Bitte die Seite aktualisieren.',
    'perr.time_entry_open': 'Der Eintrag ist noch offen: bitte mit „Ausstempeln nachtragen“ abschließen.',
    'perr.time_entry_overlap': 'Der Eintrag überschneidet sich mit einem anderen Eintrag derselben Person.',
    'perr.time_entry_overlap_with': 'Der Eintrag überschneidet sich mit dem Eintrag von {name}, {when}.',
    'perr.discount_inactive': 'Der Rabatt ist nicht aktiv.',
    'perr.discount_not_started': 'Der Rabatt gilt noch nicht.',
    'perr.discount_expired': 'Der Rabatt ist abgelaufen.',
    'perr.usage_limit_reached': 'Der Rabatt wurde schon so oft eingelöst, wie erlaubt.',
    'perr.min_order_not_met': 'Der Mindestbestellwert ist nicht erreicht.',
    'perr.idempotency_key_reused': 'Diese Buchung wurde schon mit anderen Daten gesendet.',
    'perr.tse_queue_state': 'Der Beleg ist nicht mehr in diesem Zustand. Bitte die Seite aktualisieren.',
    'perr.tse_replacing': 'Die TSE wird gerade ersetzt. Bitte in einer Minute erneut versuchen.',
    'perr.tse_replacement_open': 'Die TSE wird bereits ersetzt. Bitte die Seite aktualisieren und dort fortfahren.',
    'perr.tse_replacement_refused': 'Das geht so nicht: mit dem eingebauten Simulator gibt es keine TSE zu ersetzen.',
    'perr.tse_not_configured': 'Es ist keine TSE eingerichtet.',
    'perr.tse_archive_overlap': 'Dieser Bereich ist schon archiviert.',
    'perr.tse_unavailable': 'Die TSE ist gerade nicht erreichbar. Bitte später erneut versuchen.',
    'perr.closing_empty': 'Für diese Kasse gibt es keine Umsätze, die noch abzuschließen sind.',
    'perr.rate_limited': 'Zu viele Versuche. Bitte kurz warten und erneut versuchen.',
    'perr.https_required': 'Die posbox ist nur über HTTPS erreichbar.',
    'perr.internal': 'In der posbox ist ein Fehler aufgetreten. Bitte erneut versuchen.',
    'perr.unavailable': 'Die posbox startet gerade. Bitte gleich erneut versuchen.',
    'perr.replication_off': 'Die Datensicherung außer Haus ist nicht eingerichtet: Es gibt kein Notfallblatt.',
    'perr.recovery_sheet_confirmed': 'Das Notfallblatt wurde schon als ausgedruckt und verwahrt bestätigt. Die Konsole zeigt den Schlüssel nicht mehr; auf der posbox druckt ihn „posbox replica key“.',
    'perr.other': 'Die posbox hat einen Fehler gemeldet ({status}).',

    // Field errors (errors[].code), shown next to the field.
    'ferr.other_field': 'dem anderen Feld',
    'ferr.quoted': '„{label}“',
    'ferr.required': 'Bitte ausfüllen.',
    'ferr.not_null': 'Bitte ausfüllen.',
    'ferr.not_allowed': 'Hier bitte nichts angeben.',
    'ferr.wrong_type': 'Dieser Wert hat die falsche Form.',
    'ferr.wrong_type.integer': 'Bitte eine ganze Zahl eingeben.',
    'ferr.wrong_type.number': 'Bitte eine Zahl eingeben.',
    'ferr.not_utf8': 'Die Eingabe enthält ungültige Zeichen.',
    'ferr.bad_format': 'Die Eingabe hat nicht die erwartete Form.',
    'ferr.not_certified': 'Der eingebaute Simulator ist keine zertifizierte TSE und wird nie gemeldet.',
    'ferr.length': 'Bitte {min} bis {max} Zeichen eingeben.',
    'ferr.too_long': 'Höchstens {max} Zeichen.',
    'ferr.control_chars': 'Bitte ohne Zeilenumbrüche und Steuerzeichen.',
    'ferr.too_small': 'Mindestens {min}.',
    'ferr.not_positive': 'Muss größer als 0 sein.',
    'ferr.out_of_range': 'Bitte einen Wert von {min} bis {max} eingeben.',
    'ferr.too_large': 'Der Wert ist zu groß.',
    'ferr.zero': 'Darf nicht 0 sein.',
    'ferr.not_decimal': 'Bitte eine Zahl wie 12,50 eingeben.',
    'ferr.too_many_decimals': 'Höchstens {places} Nachkommastellen.',
    'ferr.too_many_decimals_one': 'Höchstens eine Nachkommastelle.',
    'ferr.too_many': 'Höchstens {max} Einträge.',
    'ferr.too_few': 'Mindestens {min} Einträge.',
    'ferr.too_few_one': 'Mindestens ein Eintrag.',
    'ferr.one_of': 'Bitte einen der angebotenen Werte wählen.',
    'ferr.duplicate': 'Dieser Wert ist schon vergeben.',
    'ferr.not_uuid': 'Bitte die Kennung (ID) genau so eingeben, wie die Kasse sie zeigt.',
    'ferr.not_email': 'Bitte eine E-Mail-Adresse eingeben, z. B. anna@example.de.',
    'ferr.not_phone': 'Bitte eine Handynummer mit Ländervorwahl eingeben, z. B. +4915112345678.',
    'ferr.not_url': 'Bitte eine vollständige Adresse eingeben, die mit https:// oder http:// beginnt.',
    'ferr.not_date': 'Bitte ein gültiges Datum eingeben.',
    'ferr.not_time': 'Bitte eine Uhrzeit wie 09:30 eingeben.',
    'ferr.not_timestamp': 'Bitte Datum und Uhrzeit eingeben.',
    'ferr.not_timezone': 'Bitte eine Zeitzone aus der Liste wählen, z. B. Europe/Berlin.',
    'ferr.not_country': 'Bitte den dreistelligen Ländercode eingeben, z. B. DEU für Deutschland.',
    'ferr.not_currency': 'Bitte einen Währungscode wie EUR eingeben.',
    'ferr.not_event_type': 'Nur Kleinbuchstaben, Ziffern, Punkt und Unterstrich; am Anfang ein Buchstabe.',
    'ferr.not_staff_number': 'Bitte 1 bis {max} Buchstaben, Ziffern oder Bindestriche.',
    'ferr.not_pin': 'Bitte 4 bis 8 Ziffern.',
    'ferr.in_future': 'Darf nicht in der Zukunft liegen.',
    'ferr.date_out_of_range': 'Dieses Datum ist nicht möglich.',
    'ferr.range_too_long': 'Der Zeitraum darf höchstens {days} Tage umfassen.',
    'ferr.break_too_long': 'Die Pause muss kürzer sein als die Arbeitszeit ({minutes} Minuten).',
    'ferr.dst_gap': 'Wegen der Zeitumstellung hat diese Schicht keine Dauer.',
    'ferr.nothing_to_change': 'Bitte mindestens einen Wert ändern.',
    'ferr.before_field': 'Darf nicht vor {field} liegen.',
    'ferr.after_field': 'Darf nicht nach {field} liegen.',
    'ferr.not_after_field': 'Muss nach {field} liegen.',
    'ferr.equals_field': 'Muss sich von {field} unterscheiden.',
    'ferr.exceeds_field': 'Darf nicht über dem Wert von {field} liegen.',
    'ferr.sign_of_field': 'Muss dasselbe Vorzeichen haben wie {field}.',
    'ferr.requires_field': 'Nur zusammen mit {field} angeben.',
    'ferr.below_used': 'Darf nicht unter der Zahl der bisherigen Einlösungen ({count}) liegen.',
    'ferr.wrong_password': 'Das bisherige Passwort ist falsch.',
    'ferr.same_password': 'Das neue Passwort muss sich vom bisherigen unterscheiden.',
    'ferr.unknown_user': 'Diese Person gibt es hier nicht.',
    'ferr.reserved_event': 'Dieses Ereignis meldet die posbox selbst; die Kasse kann es nicht senden.',
    'ferr.not_set_up': 'Dieser Kanal ist noch nicht eingerichtet (Einstellungen).',
    'ferr.not_active_user': 'Bitte eine aktive Person wählen.',
    'ferr.unknown_register': 'Von dieser Kasse hat die posbox keine Umsätze.',
    'ferr.unknown_sale': 'Diesen Verkauf gibt es nicht.',
    'ferr.not_cancellable': 'Dieser Beleg kann nicht storniert werden.',
    'ferr.storno_total': 'Ein Storno muss den ganzen Betrag des Belegs zurücknehmen.',
    'ferr.sum_mismatch': 'Die Beträge gehen nicht auf.',
    'ferr.discount_adds': 'Eine Rabattzeile darf die Summe nicht erhöhen.',
  },
  en: {
    'perr.network': 'The posbox cannot be reached. Please check the connection.',
    'perr.unauthenticated': 'Your login has expired or is not valid. Please log in again.',
    'perr.forbidden': 'You are not allowed to do that.',
    'perr.auditor_not_allowed': 'The audit access shows the fiscal records only; this is not one of them.',
    'perr.auditor_access_ended': 'This audit access has ended. Please ask the business if you need to continue the audit.',
    'perr.not_found': 'This record does not exist (any more). It may just have been deleted; please refresh the page.',
    'perr.method_not_allowed': 'The posbox cannot do that this way ({status}).',
    'perr.malformed_json': 'The request was faulty ({status}). Please reload the page.',
    'perr.unknown_field': 'The request was faulty ({status}). Please reload the page.',
    'perr.unsupported_media_type': 'The request was faulty ({status}). Please reload the page.',
    'perr.request_too_large': 'The input is too large.',
    'perr.validation_failed': 'Please check the marked fields.',
    'perr.conflict': 'Someone changed this at the same time. Please refresh the page and try again.',
    'perr.already_clocked_in': 'This person is already clocked in.',
    'perr.not_clocked_in': 'This person is not clocked in.',
    'perr.shift_overlap': 'The shift overlaps another shift of the same person.',
    'perr.shift_overlap_with': 'The shift overlaps the shift of {name}, {when}.',
    'perr.last_admin': 'This is the last active admin. Please add another admin first.',
    'perr.user_active': 'Only the data of a disabled person can be erased. Please disable them first.',
    'perr.user_erased': 'The personal data of this person was erased before.',
    'perr.user_clocked_in': 'This person is still clocked in. Please end the open working time under "Time entries" first, then erase the data.',
    'perr.already_cancelled': 'This receipt has already been cancelled. A receipt can be cancelled only once.',
    'perr.registration_incomplete': 'The registration with the tax office still lacks details in the master data.',
    'perr.event_type_reserved': 'posbox raises this event itself; the till cannot send it.',
    'perr.channel_not_configured': 'This channel is not set up yet. Please set it up under "Settings" first, or add the rule switched off.',
    'perr.time_entry_closed': 'This entry has been closed meanwhile. Please refresh the page.',
    'perr.time_entry_open': 'The entry is still open: please close it with “Record clock-out”.',
    'perr.time_entry_overlap': 'The entry overlaps another entry of the same person.',
    'perr.time_entry_overlap_with': 'The entry overlaps the entry of {name}, {when}.',
    'perr.discount_inactive': 'The discount is not active.',
    'perr.discount_not_started': 'The discount is not valid yet.',
    'perr.discount_expired': 'The discount has expired.',
    'perr.usage_limit_reached': 'The discount has been redeemed as often as allowed.',
    'perr.min_order_not_met': 'The minimum order value is not reached.',
    'perr.idempotency_key_reused': 'This sale was already sent with different data.',
    'perr.tse_queue_state': 'The receipt is no longer in this state. Please refresh the page.',
    'perr.tse_replacing': 'The TSE is being replaced right now. Please try again in a minute.',
    'perr.tse_replacement_open': 'The TSE is already being replaced. Please refresh the page and continue there.',
    'perr.tse_replacement_refused': 'Not possible: with the built-in simulator there is no TSE to replace.',
    'perr.tse_not_configured': 'No TSE is set up.',
    'perr.tse_archive_overlap': 'This range is already archived.',
    'perr.tse_unavailable': 'The TSE cannot be reached right now. Please try again later.',
    'perr.closing_empty': 'This register has no sales left to close.',
    'perr.rate_limited': 'Too many attempts. Please wait a moment and try again.',
    'perr.https_required': 'The posbox can only be reached over HTTPS.',
    'perr.internal': 'Something went wrong in the posbox. Please try again.',
    'perr.unavailable': 'The posbox is starting. Please try again in a moment.',
    'perr.replication_off': 'The off-site copy is not set up: there is no recovery sheet.',
    'perr.recovery_sheet_confirmed': 'The recovery sheet was already confirmed as printed and stored. The console no longer shows the key; on the posbox, "posbox replica key" prints it.',
    'perr.other': 'The posbox reported an error ({status}).',

    'ferr.other_field': 'the other field',
    'ferr.quoted': '“{label}”',
    'ferr.required': 'Please fill this in.',
    'ferr.not_null': 'Please fill this in.',
    'ferr.not_allowed': 'Please leave this empty here.',
    'ferr.wrong_type': 'This value has the wrong form.',
    'ferr.wrong_type.integer': 'Please enter a whole number.',
    'ferr.wrong_type.number': 'Please enter a number.',
    'ferr.not_utf8': 'The input contains invalid characters.',
    'ferr.bad_format': 'The input does not have the expected form.',
    'ferr.not_certified': 'The built-in simulator is no certified TSE and is never registered.',
    'ferr.length': 'Please enter {min} to {max} characters.',
    'ferr.too_long': 'At most {max} characters.',
    'ferr.control_chars': 'Please without line breaks or control characters.',
    'ferr.too_small': 'At least {min}.',
    'ferr.not_positive': 'Must be greater than 0.',
    'ferr.out_of_range': 'Please enter a value from {min} to {max}.',
    'ferr.too_large': 'The value is too large.',
    'ferr.zero': 'Must not be 0.',
    'ferr.not_decimal': 'Please enter a number such as 12.50.',
    'ferr.too_many_decimals': 'At most {places} decimal places.',
    'ferr.too_many_decimals_one': 'At most one decimal place.',
    'ferr.too_many': 'At most {max} entries.',
    'ferr.too_few': 'At least {min} entries.',
    'ferr.too_few_one': 'At least one entry.',
    'ferr.one_of': 'Please choose one of the values offered.',
    'ferr.duplicate': 'This value is already taken.',
    'ferr.not_uuid': 'Please enter the id exactly as the till shows it.',
    'ferr.not_email': 'Please enter an email address, e.g. anna@example.com.',
    'ferr.not_phone': 'Please enter a mobile number with country code, e.g. +4915112345678.',
    'ferr.not_url': 'Please enter a full address starting with https:// or http://.',
    'ferr.not_date': 'Please enter a valid date.',
    'ferr.not_time': 'Please enter a time such as 09:30.',
    'ferr.not_timestamp': 'Please enter a date and time.',
    'ferr.not_timezone': 'Please choose a timezone from the list, e.g. Europe/Berlin.',
    'ferr.not_country': 'Please enter the three-letter country code, e.g. DEU for Germany.',
    'ferr.not_currency': 'Please enter a currency code such as EUR.',
    'ferr.not_event_type': 'Only lowercase letters, digits, dot and underscore; a letter first.',
    'ferr.not_staff_number': 'Please use 1 to {max} letters, digits or hyphens.',
    'ferr.not_pin': 'Please use 4 to 8 digits.',
    'ferr.in_future': 'Must not be in the future.',
    'ferr.date_out_of_range': 'This date is not possible.',
    'ferr.range_too_long': 'The range may span at most {days} days.',
    'ferr.break_too_long': 'The break must be shorter than the time worked ({minutes} minutes).',
    'ferr.dst_gap': 'Because of the clock change this shift has no length.',
    'ferr.nothing_to_change': 'Please change at least one value.',
    'ferr.before_field': 'Must not be before {field}.',
    'ferr.after_field': 'Must not be after {field}.',
    'ferr.not_after_field': 'Must be after {field}.',
    'ferr.equals_field': 'Must differ from {field}.',
    'ferr.exceeds_field': 'Must not exceed {field}.',
    'ferr.sign_of_field': 'Must have the sign of {field}.',
    'ferr.requires_field': 'Only together with {field}.',
    'ferr.below_used': 'Must not be below the number of redemptions so far ({count}).',
    'ferr.wrong_password': 'The current password is wrong.',
    'ferr.same_password': 'The new password must differ from the current one.',
    'ferr.unknown_user': 'This person does not exist here.',
    'ferr.reserved_event': 'posbox raises this event itself; the till cannot send it.',
    'ferr.not_set_up': 'This channel is not set up yet (Settings).',
    'ferr.not_active_user': 'Please choose an active person.',
    'ferr.unknown_register': 'The posbox has no sales from this register.',
    'ferr.unknown_sale': 'This sale does not exist.',
    'ferr.not_cancellable': 'This receipt cannot be cancelled.',
    'ferr.storno_total': 'A storno must reverse the whole amount of the receipt.',
    'ferr.sum_mismatch': 'The amounts do not add up.',
    'ferr.discount_adds': 'A discount line must not raise the total.',
  },
});

// problemText is the sentence for a problem answer (an ApiError's status,
// code and conflict); never the API's English detail.
export function problemText({ status, code, conflict }) {
  if (status === 0) return t('perr.network');
  if (conflict && has(`perr.${code}_with`)) {
    return t(`perr.${code}_with`, { name: conflict.user_name, when: span(conflict.starts_at, conflict.ends_at) });
  }
  if (code && has(`perr.${code}`)) return t(`perr.${code}`, { status });
  return t('perr.other', { status });
}

// span says when a shift or entry was: "Mo., 23.11. 17:00–23:00" (the
// restaurant's wall clock; an open entry has no end).
function span(from, to) {
  const day = fmtDay(localDate(new Date(from)), { weekday: 'short', day: '2-digit', month: '2-digit' });
  return `${day} ${fmtTime(from)}–${to ? fmtTime(to) : '…'}`;
}

// fieldErrorText is the sentence for one field error; labelOf(name) is
// the visible label of another field the error speaks of (or null).
export function fieldErrorText(fe, labelOf = () => null) {
  const code = fe && fe.code;
  // The console's own checks (before a request) carry a translated text.
  if (!code && fe && fe.message) return fe.message;
  const params = { ...(fe && fe.params) };
  for (const [k, v] of Object.entries(params)) {
    if (typeof v === 'number') params[k] = fmtNumber(v, 3);
  }
  if (typeof params.field === 'string') {
    const label = labelOf(params.field);
    params.field = label ? t('ferr.quoted', { label }) : t('ferr.other_field');
  }
  if (code === 'wrong_type' && has(`ferr.wrong_type.${params.type}`)) return t(`ferr.wrong_type.${params.type}`);
  if (code && has(`ferr.${code}`)) return t(`ferr.${code}`, { ...params, n: plural(fe.params) });
  return t('perr.validation_failed');
}

// plural is the count a _one key is chosen by (the code's only number).
function plural(params) {
  const nums = Object.values(params || {}).filter((v) => typeof v === 'number');
  return nums.length === 1 ? nums[0] : undefined;
}
