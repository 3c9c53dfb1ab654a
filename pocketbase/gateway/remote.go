package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The wire answers of PocketBase's /api/gateway routes (pocketbase/gatewayapi serves
// them from an SQLSource; HTTPSource reads them).
type (
	SnapshotAnswer struct {
		Cursor  int64    `json:"cursor"`
		Records []Record `json:"records"`
	}
	ChangesAnswer struct {
		IDs    []string `json:"ids"`
		Cursor int64    `json:"cursor"`
		Reset  bool     `json:"reset"`
	}
	RecordsRequest struct {
		IDs []string `json:"ids"`
	}
	RecordsAnswer struct {
		Records []Record `json:"records"`
	}
	RangesAnswer struct {
		Ranges []netip.Prefix `json:"ranges"`
	}
	UpstreamReport struct {
		ProxyID string `json:"proxy_id"`
		Error   string `json:"error"` // "" = works again
	}
	MonthUsageAnswer struct {
		Used map[string]int64 `json:"used"`
	}
)

// StatusError is an answer of the shop other than 200 OK.
type StatusError struct {
	Method, Path string
	Status       int
	Text         string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("%s %s: %d %s %s", e.Method, e.Path, e.Status, http.StatusText(e.Status), e.Text)
}

// refusedByShop: the shop refused this gateway itself (its token revoked or wrong: 401,
// 403), which no retry mends.
func refusedByShop(err error) bool {
	var se *StatusError
	return errors.As(err, &se) && (se.Status == http.StatusUnauthorized || se.Status == http.StatusForbidden)
}

// HTTPSource follows a shop's PocketBase over its API with a gateway token: how gateways
// on other machines run (`pocketbase gateway --pb-url ... --token-file ...`).
type HTTPSource struct {
	BaseURL string
	Token   string
	Client  *http.Client
}

func (s *HTTPSource) do(ctx context.Context, method, path string, body, out any) error {
	var reader io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return err
		}
		reader = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(s.BaseURL, "/")+path, reader)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+s.Token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	client := s.Client
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	res, err := client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		text, _ := io.ReadAll(io.LimitReader(res.Body, 500))
		return &StatusError{Method: method, Path: path, Status: res.StatusCode, Text: strings.TrimSpace(string(text))}
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(res.Body).Decode(out)
}

func (s *HTTPSource) Load(ctx context.Context) ([]Record, int64, error) {
	var a SnapshotAnswer
	err := s.do(ctx, http.MethodGet, "/api/gateway/snapshot", nil, &a)
	return a.Records, a.Cursor, err
}

func (s *HTTPSource) Changes(ctx context.Context, cursor int64) ([]string, int64, bool, error) {
	var a ChangesAnswer
	err := s.do(ctx, http.MethodGet, "/api/gateway/changes?since="+strconv.FormatInt(cursor, 10), nil, &a)
	if err != nil {
		return nil, cursor, false, err
	}
	return a.IDs, a.Cursor, a.Reset, nil
}

func (s *HTTPSource) Fetch(ctx context.Context, ids []string) ([]Record, error) {
	var a RecordsAnswer
	err := s.do(ctx, http.MethodPost, "/api/gateway/records", RecordsRequest{IDs: ids}, &a)
	return a.Records, err
}

func (s *HTTPSource) AllowedRanges(ctx context.Context) ([]netip.Prefix, error) {
	var a RangesAnswer
	err := s.do(ctx, http.MethodGet, "/api/gateway/allowed-ranges", nil, &a)
	return a.Ranges, err
}

func (s *HTTPSource) ReportUpstream(ctx context.Context, proxyID string, failure error) error {
	report := UpstreamReport{ProxyID: proxyID}
	if failure != nil {
		report.Error = failure.Error()
	}
	return s.do(ctx, http.MethodPost, "/api/gateway/upstream", report, nil)
}

func (s *HTTPSource) FlushUsage(ctx context.Context, batch UsageBatch) error {
	return s.do(ctx, http.MethodPost, "/api/gateway/usage", batch, nil)
}

func (s *HTTPSource) MonthUsage(ctx context.Context, month time.Time) (map[string]int64, error) {
	var a MonthUsageAnswer
	err := s.do(ctx, http.MethodGet, "/api/gateway/month-usage?month="+url.QueryEscape(month.UTC().Format(time.RFC3339)), nil, &a)
	return a.Used, err
}
