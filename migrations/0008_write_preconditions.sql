-- Preconditions of a write batch. A batch that must not commit unless a condition still holds (e.g. "these order
-- lines are still cancellable") inserts a NULL here exactly when the condition fails: the NOT NULL constraint then
-- aborts the whole batch (a D1 batch is one transaction). When the condition holds nothing is inserted, so the
-- table stays empty.
CREATE TABLE write_preconditions (
  must_hold INTEGER NOT NULL
);
