-- Orders: a quote (price option) backs at most one order line, ever. The order's D1 batch relies on this
-- index to reject, atomically, a quote that another order (even a concurrent one) has consumed.
CREATE UNIQUE INDEX order_lines_quote ON order_lines(quote_id);
