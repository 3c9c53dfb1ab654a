package gateway

import (
	"context"
	"net/netip"
	"sync"
	"time"
)

// StaticSource is a Source held in memory: tests and benchmarks change its records and the
// gateway follows them.
type StaticSource struct {
	mu      sync.Mutex
	records map[string]Record
	changes []string
	allowed []netip.Prefix
	reports map[string]string
	// flushes are the usage batches written; monthUsed what MonthUsage answers.
	flushes   []UsageBatch
	monthUsed map[string]int64
}

// NewStaticSource holds `records`.
func NewStaticSource(records ...Record) *StaticSource {
	s := &StaticSource{records: map[string]Record{}, reports: map[string]string{}}
	for _, r := range records {
		s.records[r.ID] = r
	}
	return s
}

// Put adds or replaces a record.
func (s *StaticSource) Put(r Record) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.records[r.ID] = r
	s.changes = append(s.changes, r.ID)
}

// Remove deletes a record.
func (s *StaticSource) Remove(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.records, id)
	s.changes = append(s.changes, id)
}

func (s *StaticSource) Load(context.Context) ([]Record, int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []Record{}
	for _, r := range s.records {
		out = append(out, r)
	}
	return out, int64(len(s.changes)), nil
}

func (s *StaticSource) Changes(_ context.Context, cursor int64) ([]string, int64, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string{}, s.changes[cursor:]...), int64(len(s.changes)), false, nil
}

func (s *StaticSource) Fetch(_ context.Context, ids []string) ([]Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []Record{}
	for _, id := range ids {
		if r, ok := s.records[id]; ok {
			out = append(out, r)
		}
	}
	return out, nil
}

func (s *StaticSource) AllowedRanges(context.Context) ([]netip.Prefix, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.allowed, nil
}

func (s *StaticSource) ReportUpstream(_ context.Context, id string, err error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err == nil {
		s.reports[id] = "ok"
	} else {
		s.reports[id] = "failed"
	}
	return nil
}

func (s *StaticSource) FlushUsage(_ context.Context, batch UsageBatch) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushes = append(s.flushes, batch)
	return nil
}

func (s *StaticSource) MonthUsage(context.Context, time.Time) (map[string]int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.monthUsed, nil
}

func (s *StaticSource) report(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reports[id]
}
