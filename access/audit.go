package access

import (
	"encoding/json"
	"time"

	"context"
	"fmt"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/auditentry"
)

// AuditRecord is one audit log entry.
type AuditRecord struct {
	ID         int            `json:"id"`
	Actor      string         `json:"actor"`
	Action     string         `json:"action"`
	ConsumerID int            `json:"consumerId,omitempty"`
	Target     string         `json:"target,omitempty"`
	Reason     string         `json:"reason,omitempty"`
	Before     map[string]any `json:"before,omitempty"`
	After      map[string]any `json:"after,omitempty"`
	At         time.Time      `json:"at"`
}

// Audit returns the newest audit entries, newest first; consumerID 0 means all consumers.
func (s *Service) Audit(ctx context.Context, a Actor, consumerID, limit int) ([]AuditRecord, error) {
	if a.ConsumerID != 0 {
		consumerID = a.ConsumerID
	}
	q := s.db.AuditEntry.Query().Order(ent.Desc(auditentry.FieldID)).Limit(limit)
	if consumerID != 0 {
		q.Where(auditentry.ConsumerID(consumerID))
	}
	rows, err := q.All(ctx)
	if err != nil {
		return nil, fmt.Errorf("read audit log: %w", err)
	}
	out := make([]AuditRecord, len(rows))
	for i, r := range rows {
		out[i] = AuditRecord{ID: r.ID, Actor: r.Actor, Action: r.Action, Target: r.Target, Reason: r.Reason, Before: r.Before, After: r.After, At: r.At}
		if r.ConsumerID != nil {
			out[i].ConsumerID = *r.ConsumerID
		}
	}
	return out, nil
}

// asMap turns a record into the JSON object stored in the audit log.
func asMap(v any) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		return map[string]any{"error": err.Error()}
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return map[string]any{"error": err.Error()}
	}
	return m
}
