package dsfinvk

import (
	"bytes"
	"encoding/xml"
	"strconv"
)

// indexXML is the GDPdU description (index.xml) of the export's tables:
// one <Table> per CSV file with its dialect and its columns in order, as
// the DSFinV-K's reference index.xml describes them (no primary or
// foreign keys).
func indexXML(supplier, location, comment string) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\r\n")
	b.WriteString(`<!DOCTYPE DataSet SYSTEM "gdpdu-01-09-2004.dtd">` + "\r\n")
	b.WriteString("<DataSet>\r\n  <Version>1.0</Version>\r\n  <DataSupplier>\r\n")
	el(&b, 4, "Name", supplier)
	el(&b, 4, "Location", location)
	el(&b, 4, "Comment", comment)
	b.WriteString("  </DataSupplier>\r\n  <Media>\r\n")
	el(&b, 4, "Name", "DSFinV-K")
	for _, t := range tables {
		b.WriteString("    <Table>\r\n")
		el(&b, 6, "URL", t.file)
		el(&b, 6, "Name", t.name)
		el(&b, 6, "Description", t.desc)
		b.WriteString("      <UTF8/>\r\n")
		el(&b, 6, "DecimalSymbol", ",")
		el(&b, 6, "DigitGroupingSymbol", ".")
		b.WriteString("      <Range>\r\n        <From>2</From>\r\n      </Range>\r\n")
		b.WriteString("      <VariableLength>\r\n")
		el(&b, 8, "ColumnDelimiter", ";")
		b.WriteString("        <RecordDelimiter>&#13;&#10;</RecordDelimiter>\r\n")
		el(&b, 8, "TextEncapsulator", `"`)
		for _, c := range t.cols {
			b.WriteString("        <VariableColumn>\r\n")
			el(&b, 10, "Name", c.name)
			columnType(&b, c)
			b.WriteString("        </VariableColumn>\r\n")
		}
		b.WriteString("      </VariableLength>\r\n    </Table>\r\n")
	}
	b.WriteString("  </Media>\r\n</DataSet>\r\n")
	return b.Bytes()
}

// columnType declares a column's type. An integer column is a bare
// <Numeric/>, as in the BZSt's reference index.xml: a validator flags
// every value of one declared <Accuracy>0</Accuracy>.
func columnType(b *bytes.Buffer, c column) {
	switch {
	case c.numeric && c.size == 0:
		b.WriteString("          <Numeric/>\r\n")
	case c.numeric:
		b.WriteString("          <Numeric>\r\n")
		el(b, 12, "Accuracy", strconv.Itoa(c.size))
		b.WriteString("          </Numeric>\r\n")
	default:
		b.WriteString("          <AlphaNumeric/>\r\n")
		el(b, 10, "MaxLength", strconv.Itoa(c.size))
	}
}

func el(b *bytes.Buffer, indent int, name, text string) {
	for range indent {
		b.WriteByte(' ')
	}
	b.WriteString("<" + name + ">")
	_ = xml.EscapeText(b, []byte(text))
	b.WriteString("</" + name + ">\r\n")
}

// gdpduDTD is the element declarations of the GDPdU description standard,
// version 1.5 (gdpdu-01-09-2004.dtd), which index.xml names and which the
// export ships beside it, as the DSFinV-K asks.
const gdpduDTD = `<?xml version="1.0" encoding="UTF-8"?>
<!-- GDPdU description standard 1.5 (01-09-2004): element declarations -->
<!ELEMENT Version (#PCDATA)>
<!ELEMENT Location (#PCDATA)>
<!ELEMENT Comment (#PCDATA)>
<!ELEMENT Length (#PCDATA)>
<!ELEMENT References (#PCDATA)>
<!ELEMENT From (#PCDATA)>
<!ELEMENT To (#PCDATA)>
<!ELEMENT AcceptNoTables (#PCDATA)>
<!ELEMENT Alias (From, To)>
<!ELEMENT MaxLength (#PCDATA)>
<!ELEMENT TextEncapsulator (#PCDATA)>
<!ELEMENT Accuracy (#PCDATA)>
<!ELEMENT ImpliedAccuracy (#PCDATA)>
<!ELEMENT Format (#PCDATA)>
<!ELEMENT DecimalSymbol (#PCDATA)>
<!ELEMENT DigitGroupingSymbol (#PCDATA)>
<!ELEMENT Command (#PCDATA)>
<!ELEMENT URL (#PCDATA)>
<!ELEMENT Description (#PCDATA)>
<!ELEMENT Name (#PCDATA)>
<!ELEMENT Epoch (#PCDATA)>
<!ELEMENT ColumnDelimiter (#PCDATA)>
<!ELEMENT RecordDelimiter (#PCDATA)>
<!ELEMENT SkipNumBytes (#PCDATA)>
<!ELEMENT Extension (Name, URL)>
<!ELEMENT Range (From, (To | Length)?)>
<!ELEMENT FixedRange (From, (To | Length))>
<!ELEMENT DataSet (Extension*, Version, DataSupplier?, Command*, Media+, Command*)>
<!ELEMENT AlphaNumeric EMPTY>
<!ELEMENT Date (Format?)>
<!ELEMENT Numeric ((ImpliedAccuracy | Accuracy)?)>
<!ELEMENT ANSI EMPTY>
<!ELEMENT Macintosh EMPTY>
<!ELEMENT OEM EMPTY>
<!ELEMENT UTF16 EMPTY>
<!ELEMENT UTF7 EMPTY>
<!ELEMENT UTF8 EMPTY>
<!ELEMENT FixedLength ((Length | RecordDelimiter)?, ((FixedPrimaryKey+, FixedColumn*) | (FixedColumn+)), ForeignKey*)>
<!ELEMENT FixedColumn (Name, Description?, (Numeric | AlphaNumeric | Date), Map*, FixedRange)>
<!ELEMENT FixedPrimaryKey (Name, Description?, (Numeric | AlphaNumeric | Date), Map*, FixedRange)>
<!ELEMENT VariableLength (ColumnDelimiter?, RecordDelimiter?, TextEncapsulator?, ((VariablePrimaryKey+, VariableColumn*) | (VariableColumn+)), ForeignKey*)>
<!ELEMENT VariableColumn (Name, Description?, (Numeric | (AlphaNumeric, MaxLength?) | Date), Map*)>
<!ELEMENT VariablePrimaryKey (Name, Description?, (Numeric | (AlphaNumeric, MaxLength?) | Date), Map*)>
<!ELEMENT DataSupplier (Name, Location, Comment)>
<!ELEMENT Media (Name, Command*, Table*, Command*, AcceptNoTables?)>
<!ELEMENT Table (URL, Name?, Description?, Validity?, (ANSI | Macintosh | OEM | UTF16 | UTF7 | UTF8)?, (DecimalSymbol, DigitGroupingSymbol)?, SkipNumBytes?, Range?, Epoch?, (VariableLength | FixedLength))>
<!ELEMENT ForeignKey (Name+, References, Alias*)>
<!ELEMENT Map (Description?, From, To)>
<!ELEMENT Validity (Range, Format?)>
`
