package console

import (
	"encoding/csv"
	"io"
	"net/http"
	"strings"
)

// csvFlushRows is how many rows a CSV export writes between flushes to the client.
const csvFlushRows = 1000

// streamCSV answers with a CSV file of header and the rows each writes, as they are read: each
// calls row for every row and stops at its error. An error before anything reached the client is
// answered with the error page; after, the connection is broken (and the error logged), so that a
// download that ended short fails instead of looking complete.
func (c *Console) streamCSV(w http.ResponseWriter, r *http.Request, filename string, header []string,
	each func(row func(...string) error) error) {
	h := w.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="`+filename+`"`)
	out := &countingWriter{w: w}
	cw := csv.NewWriter(out)
	_ = cw.Write(header)
	flusher, _ := w.(http.Flusher)
	rows := 0
	err := each(func(cells ...string) error {
		if err := cw.Write(cells); err != nil {
			return err
		}
		if rows++; rows%csvFlushRows == 0 {
			cw.Flush()
			if flusher != nil {
				flusher.Flush()
			}
		}
		return cw.Error()
	})
	if err == nil {
		cw.Flush()
		err = cw.Error()
	}
	switch {
	case err == nil:
	case out.n == 0:
		h.Del("Content-Disposition")
		c.fail(w, r, err)
	default:
		c.log.Warn("console CSV export ended short", "file", filename, "rows", rows, "err", err)
		panic(http.ErrAbortHandler)
	}
}

// countingWriter counts what went through, to know whether an answer has begun.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// csvCell keeps a spreadsheet from reading a cell as a formula: a text starting with =, +, -, @,
// a tab or a carriage return gets a leading apostrophe.
func csvCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
