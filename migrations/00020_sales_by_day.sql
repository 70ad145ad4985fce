-- +goose Up
-- A day's sales by when they happened at the till: the daily report
-- (store.DailyReport) and HQ's summary of today (store.HQSummaries) read
-- them by business_time, which no index led with, so each read every
-- sale the restaurant ever made: a second or more a night in year ten.
CREATE INDEX tse_transactions_business_time
    ON tse_transactions(restaurant_id, business_time) WHERE source = 'posbox';

-- +goose Down
DROP INDEX tse_transactions_business_time;
