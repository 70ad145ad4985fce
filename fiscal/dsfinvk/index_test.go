package dsfinvk

import (
	"bytes"
	"encoding/xml"
	"strconv"
	"testing"
)

// An integer column (numeric, no decimals) is declared <Numeric/>, as the
// BZSt's reference index.xml has it; a column with decimals keeps its
// <Accuracy>.
func TestIndexXMLNumericColumns(t *testing.T) {
	raw := indexXML("Zum Löwen", "Freiburg", "test")
	var idx struct {
		Tables []struct {
			URL     string `xml:"URL"`
			Columns []struct {
				Name    string `xml:"Name"`
				Numeric *struct {
					Inner string `xml:",innerxml"`
				} `xml:"Numeric"`
			} `xml:"VariableLength>VariableColumn"`
		} `xml:"Media>Table"`
	}
	d := xml.NewDecoder(bytes.NewReader(raw))
	d.Strict = false // the DOCTYPE names the DTD shipped beside it
	if err := d.Decode(&idx); err != nil {
		t.Fatal(err)
	}
	if len(idx.Tables) != len(tables) {
		t.Fatalf("%d tables, want %d", len(idx.Tables), len(tables))
	}
	integers := 0
	for i, tb := range tables {
		for j, c := range tb.cols {
			got := idx.Tables[i].Columns[j]
			if !c.numeric {
				continue
			}
			want := "\r\n            <Accuracy>" + strconv.Itoa(c.size) + "</Accuracy>\r\n          "
			if c.size == 0 {
				want = ""
				integers++
			}
			inner := "(no Numeric)"
			if got.Numeric != nil {
				inner = got.Numeric.Inner
			}
			if got.Name != c.name || inner != want {
				t.Errorf("%s %s (index.xml %s): Numeric %q, want %q", tb.file, c.name, got.Name, inner, want)
			}
		}
	}
	if n := bytes.Count(raw, []byte("<Numeric/>")); n != integers {
		t.Errorf("%d <Numeric/> for %d integer columns", n, integers)
	}
}
