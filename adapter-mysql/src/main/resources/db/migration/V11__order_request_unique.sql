-- One order per request (issue 8, item 5): the hot store's request index says a retried request is the reservation
-- it made before, but Redis may lose that index; then a retry becomes a new reservation, and with a per-user limit
-- above 1 it would become a second order. The database refuses it instead (DUPLICATE_REQUEST, nothing stored).
-- Every order row so far came from one accepted reservation, and the request index answered a retry with the
-- reservation it had made, so existing rows are unique on these columns unless a loss already doubled an order;
-- should this fail on such data, find the pairs with
--   SELECT activity_id, buyer_id, request_id, COUNT(*) FROM purchase_order
--   GROUP BY activity_id, buyer_id, request_id HAVING COUNT(*) > 1;
-- and settle them (cancel the later order) before migrating. The index also serves the buyer's lookups by activity,
-- so it replaces ix_purchase_order_activity_buyer, whose columns are its prefix.
ALTER TABLE purchase_order
    ADD CONSTRAINT uk_purchase_order_request UNIQUE (activity_id, buyer_id, request_id),
    DROP INDEX ix_purchase_order_activity_buyer;
