package console

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestStreamCSV: a CSV export's rows reach the client as they are written; a failure before
// anything was sent is the error page, and one after it breaks the connection, so the client sees
// a failed download rather than a file that looks complete.
func TestStreamCSV(t *testing.T) {
	h := newHarness(t)
	failAfter := -1 // rows before the failure; -1: none
	srv := httptest.NewServer(h.c.sessions.LoadAndSave(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.c.streamCSV(w, r, "x.csv", []string{"n", "cell"}, func(row func(...string) error) error {
			for i := range 3 * csvFlushRows {
				if i == failAfter {
					return errors.New("the store went away")
				}
				if err := row(fmt.Sprint(i), csvCell("=1+1")); err != nil {
					return err
				}
			}
			return nil
		})
	})))
	defer srv.Close()
	get := func() (*http.Response, string, error) {
		resp, err := http.Get(srv.URL)
		if err != nil {
			return nil, "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp, string(b), err
	}

	resp, body, err := get()
	if err != nil || resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Disposition"), `attachment; filename="x.csv"`) {
		t.Fatalf("whole export: %v, %v", resp, err)
	}
	if n := strings.Count(body, "\n"); n != 3*csvFlushRows+1 || !strings.Contains(body, "\n2999,'=1+1\n") {
		t.Fatalf("whole export: %d lines", n)
	}

	failAfter = 0
	resp, body, err = get()
	if err != nil || resp.StatusCode != http.StatusInternalServerError || resp.Header.Get("Content-Disposition") != "" ||
		!strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || strings.Contains(body, "n,cell") {
		t.Fatalf("failure before any row: %v, %v, %q", resp, err, body)
	}

	failAfter = 2 * csvFlushRows
	if _, body, err = get(); err == nil {
		t.Fatalf("failure after %d rows: the download completed (%d bytes)", failAfter, len(body))
	}
	if !strings.Contains(h.logs.String(), "ended short") {
		t.Error("the broken export is not logged")
	}
}
