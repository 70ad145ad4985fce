package dsfinvk

// The DSFinV-K 2.4 tables (the same as 2.3's): file, module name, columns in order with their
// type (docs/FISCAL.md, "DSFinV-K export", has the mapping). Alphanumeric
// columns carry their maximum length, numeric ones their decimals.

type column struct {
	name    string
	numeric bool
	size    int // numeric: decimals (Accuracy); alphanumeric: MaxLength
}

func a(name string, max int) column { return column{name: name, size: max} }
func n(name string, dec int) column { return column{name: name, numeric: true, size: dec} }

type table struct {
	file, name, desc string
	cols             []column
}

// keys start every table: the register, when the closing was taken, its
// number.
var keys = []column{a("Z_KASSE_ID", 50), a("Z_ERSTELLUNG", 30), n("Z_NR", 0)}

func withKeys(cols ...column) []column { return append(append([]column{}, keys...), cols...) }

var (
	tLines = table{"lines.csv", "Bonpos", "Einzelaufzeichnungsmodul: Bonpositionen", withKeys(
		a("BON_ID", 40), a("POS_ZEILE", 50), a("GUTSCHEIN_NR", 50), a("ARTIKELTEXT", 255), a("POS_TERMINAL_ID", 50),
		a("GV_TYP", 30), a("GV_NAME", 40), a("INHAUS", 1), a("P_STORNO", 1), n("AGENTUR_ID", 0), a("ART_NR", 50),
		a("GTIN", 50), a("WARENGR_ID", 40), a("WARENGR", 50), n("MENGE", 3), n("FAKTOR", 3), a("EINHEIT", 50), n("STK_BR", 5))}
	tLinesVAT = table{"lines_vat.csv", "Bonpos_USt", "Einzelaufzeichnungsmodul: Umsatzsteuer je Bonposition", withKeys(
		a("BON_ID", 40), a("POS_ZEILE", 50), n("UST_SCHLUESSEL", 0), n("POS_BRUTTO", 5), n("POS_NETTO", 5), n("POS_UST", 5))}
	tItemAmounts = table{"itemamounts.csv", "Bonpos_Preisfindung", "Einzelaufzeichnungsmodul: Preisfindung je Bonposition", withKeys(
		a("BON_ID", 40), a("POS_ZEILE", 50), a("TYP", 20), n("UST_SCHLUESSEL", 0), n("PF_BRUTTO", 5), n("PF_NETTO", 5), n("PF_UST", 5))}
	tSubitems = table{"subitems.csv", "Bonpos_Zusatzinfo", "Einzelaufzeichnungsmodul: Zusatzinformationen je Bonposition", withKeys(
		a("BON_ID", 40), a("POS_ZEILE", 50), a("ZI_ART_NR", 50), a("ZI_GTIN", 50), a("ZI_NAME", 60), a("ZI_WARENGR_ID", 40),
		a("ZI_WARENGR", 50), n("ZI_MENGE", 3), n("ZI_FAKTOR", 3), a("ZI_EINHEIT", 50), n("ZI_UST_SCHLUESSEL", 0),
		n("ZI_BASISPREIS_BRUTTO", 5), n("ZI_BASISPREIS_NETTO", 5), n("ZI_BASISPREIS_UST", 5))}
	tTransactions = table{"transactions.csv", "Bonkopf", "Einzelaufzeichnungsmodul: Bonköpfe", withKeys(
		a("BON_ID", 40), n("BON_NR", 0), a("BON_TYP", 30), a("BON_NAME", 60), a("TERMINAL_ID", 50), a("BON_STORNO", 1),
		a("BON_START", 30), a("BON_ENDE", 30), a("BEDIENER_ID", 50), a("BEDIENER_NAME", 50), n("UMS_BRUTTO", 2),
		a("KUNDE_NAME", 50), a("KUNDE_ID", 50), a("KUNDE_TYP", 50), a("KUNDE_STRASSE", 60), a("KUNDE_PLZ", 10),
		a("KUNDE_ORT", 62), a("KUNDE_LAND", 3), a("KUNDE_USTID", 15), a("BON_NOTIZ", 255))}
	tTransactionsVAT = table{"transactions_vat.csv", "Bonkopf_USt", "Einzelaufzeichnungsmodul: Umsatzsteuer je Bon", withKeys(
		a("BON_ID", 40), n("UST_SCHLUESSEL", 0), n("BON_BRUTTO", 5), n("BON_NETTO", 5), n("BON_UST", 5))}
	tAllocationGroups = table{"allocation_groups.csv", "Bonkopf_AbrKreis", "Einzelaufzeichnungsmodul: Abrechnungskreise", withKeys(
		a("BON_ID", 40), a("ABRECHNUNGSKREIS", 50))}
	tDataPayment = table{"datapayment.csv", "Bonkopf_Zahlarten", "Einzelaufzeichnungsmodul: Zahlarten je Bon", withKeys(
		a("BON_ID", 40), a("ZAHLART_TYP", 25), a("ZAHLART_NAME", 60), a("ZAHLWAEH_CODE", 3), n("ZAHLWAEH_BETRAG", 2),
		n("BASISWAEH_BETRAG", 2))}
	tReferences = table{"references.csv", "Bon_Referenzen", "Einzelaufzeichnungsmodul: Referenzen", withKeys(
		a("BON_ID", 40), a("POS_ZEILE", 50), a("REF_TYP", 20), a("REF_NAME", 40), a("REF_DATUM", 30), a("REF_Z_KASSE_ID", 50),
		n("REF_Z_NR", 0), a("REF_BON_ID", 40))}
	tTransactionsTSE = table{"transactions_tse.csv", "TSE_Transaktionen", "Einzelaufzeichnungsmodul: TSE-Transaktionen", withKeys(
		a("BON_ID", 40), n("TSE_ID", 0), n("TSE_TANR", 0), a("TSE_TA_START", 30), a("TSE_TA_ENDE", 30), a("TSE_TA_VORGANGSART", 30),
		n("TSE_TA_SIGZ", 0), a("TSE_TA_SIG", 512), a("TSE_TA_FEHLER", 200), a("TSE_VORGANGSDATEN", 1000))}

	tCashPointClosing = table{"cashpointclosing.csv", "Stamm_Abschluss", "Stammdatenmodul: Kassenabschlüsse", withKeys(
		a("Z_BUCHUNGSTAG", 25), a("TAXONOMIE_VERSION", 10), a("Z_START_ID", 40), a("Z_ENDE_ID", 40), a("NAME", 60),
		a("STRASSE", 60), a("PLZ", 10), a("ORT", 62), a("LAND", 3), a("STNR", 20), a("USTID", 15),
		n("Z_SE_ZAHLUNGEN", 2), n("Z_SE_BARZAHLUNGEN", 2))}
	tLocation = table{"location.csv", "Stamm_Orte", "Stammdatenmodul: Orte", withKeys(
		a("LOC_NAME", 60), a("LOC_STRASSE", 60), a("LOC_PLZ", 10), a("LOC_ORT", 62), a("LOC_LAND", 3), a("LOC_USTID", 15))}
	tCashRegister = table{"cashregister.csv", "Stamm_Kassen", "Stammdatenmodul: Kassen", withKeys(
		a("KASSE_BRAND", 50), a("KASSE_MODELL", 50), a("KASSE_SERIENNR", 70), a("KASSE_SW_BRAND", 50), a("KASSE_SW_VERSION", 50),
		a("KASSE_BASISWAEH_CODE", 3), a("KEINE_UST_ZUORDNUNG", 1))}
	tSlaves = table{"slaves.csv", "Stamm_Terminals", "Stammdatenmodul: Terminals", withKeys(
		a("TERMINAL_ID", 50), a("TERMINAL_BRAND", 50), a("TERMINAL_MODELL", 50), a("TERMINAL_SERIENNR", 70),
		a("TERMINAL_SW_BRAND", 50), a("TERMINAL_SW_VERSION", 50))}
	tPA = table{"pa.csv", "Stamm_Agenturen", "Stammdatenmodul: Agenturen", withKeys(
		n("AGENTUR_ID", 0), a("AGENTUR_NAME", 60), a("AGENTUR_STRASSE", 60), a("AGENTUR_PLZ", 10), a("AGENTUR_ORT", 62),
		a("AGENTUR_LAND", 3), a("AGENTUR_STNR", 20), a("AGENTUR_USTID", 15))}
	tVAT = table{"vat.csv", "Stamm_USt", "Stammdatenmodul: Umsatzsteuer", withKeys(
		n("UST_SCHLUESSEL", 0), n("UST_SATZ", 2), a("UST_BESCHR", 55))}
	tTSE = table{"tse.csv", "Stamm_TSE", "Stammdatenmodul: TSE", withKeys(
		n("TSE_ID", 0), a("TSE_SERIAL", 68), a("TSE_SIG_ALGO", 21), a("TSE_ZEITFORMAT", 31), a("TSE_PD_ENCODING", 5),
		a("TSE_PUBLIC_KEY", 512), a("TSE_ZERTIFIKAT_I", 1000), a("TSE_ZERTIFIKAT_II", 1000))}

	tBusinessCases = table{"businesscases.csv", "Z_GV_Typ", "Kassenabschlussmodul: Geschäftsvorfälle", withKeys(
		a("GV_TYP", 30), a("GV_NAME", 40), n("AGENTUR_ID", 0), n("UST_SCHLUESSEL", 0), n("Z_UMS_BRUTTO", 5), n("Z_UMS_NETTO", 5),
		n("Z_UST", 5))}
	tPayment = table{"payment.csv", "Z_Zahlart", "Kassenabschlussmodul: Zahlarten", withKeys(
		a("ZAHLART_TYP", 25), a("ZAHLART_NAME", 60), n("Z_ZAHLART_BETRAG", 2))}
	tCashPerCurrency = table{"cash_per_currency.csv", "Z_Waehrungen", "Kassenabschlussmodul: Bargeld je Währung", withKeys(
		a("ZAHLART_WAEH", 3), n("ZAHLART_BETRAG_WAEH", 2))}
)

// tables is every table in the order index.xml lists them.
var tables = []*table{
	&tLines, &tLinesVAT, &tItemAmounts, &tSubitems, &tTransactions, &tTransactionsVAT, &tAllocationGroups, &tDataPayment,
	&tReferences, &tTransactionsTSE,
	&tCashPointClosing, &tLocation, &tCashRegister, &tSlaves, &tPA, &tVAT, &tTSE,
	&tBusinessCases, &tPayment, &tCashPerCurrency,
}

// VAT keys (UST_SCHLUESSEL) of fiskaly's rate names, their rates in
// hundredths of a percent and vat.csv's descriptions.
var vatKeys = map[string]int{"NORMAL": 1, "REDUCED_1": 2, "SPECIAL_RATE_1": 3, "SPECIAL_RATE_2": 4, "NULL": 5}

var vatTable = []struct {
	key  int
	bp   int64
	desc string
}{
	{1, 1900, "Regelsteuersatz"},
	{2, 700, "Ermäßigter Steuersatz"},
	{3, 1070, "Durchschnittsatz (§ 24 Abs. 1 Nr. 3 UStG)"},
	{4, 550, "Durchschnittsatz (§ 24 Abs. 1 Nr. 1 UStG)"},
	{5, 0, "Nicht Steuerbar"},
	{6, 0, "Umsatzsteuerfrei"},
	{7, 0, "UmsatzsteuerNichtErmittelbar"},
}

// rateBP is a VAT key's rate in hundredths of a percent.
func rateBP(key int) int64 {
	for _, v := range vatTable {
		if v.key == key {
			return v.bp
		}
	}
	return 0
}
