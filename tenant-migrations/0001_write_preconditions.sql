-- Preconditions of a write batch, as in the control database (migrations/0008): a batch that must not commit unless a
-- condition still holds (an order still at the version read) inserts a NULL here exactly when the condition fails, and
-- the NOT NULL constraint aborts the whole batch. The table stays empty. The order changes of src/api/orders/changes.ts
-- run on a store as they do on DB.
CREATE TABLE write_preconditions (
  must_hold INTEGER NOT NULL
);
