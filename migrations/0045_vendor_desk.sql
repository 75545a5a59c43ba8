-- The vendor order desk's people (docs/desk.md): a vendor's users, each signing in with passkeys (WebAuthn), never a
-- password. The operator invites a vendor's first admin and an admin the rest; an invitation is a random token shown
-- once (only its SHA-256 is kept), valid once and for INVITATION_MINUTES. A session is a random id in an HttpOnly
-- cookie (only its SHA-256 is kept), ended by sign-out, by sign-out everywhere, after its idle or absolute timeout, and
-- at once when its user or vendor is disabled.
CREATE TABLE vendor_users (
  id INTEGER PRIMARY KEY,
  vendor_id INTEGER NOT NULL REFERENCES vendors(id),
  email TEXT NOT NULL,
  display_name TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('admin', 'desk')),
  -- invited: no passkey yet; active; disabled: every session ended, sign-in refused.
  status TEXT NOT NULL CHECK (status IN ('invited', 'active', 'disabled')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (vendor_id, email)
);

CREATE TABLE vendor_user_invitations (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES vendor_users(id),
  created_by TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
) WITHOUT ROWID;
CREATE INDEX vendor_user_invitations_user ON vendor_user_invitations(user_id);

-- A WebAuthn credential: its id and COSE public key (base64url), its signature counter, and the transports the
-- authenticator named (JSON), as @simplewebauthn/server reads them back at sign-in.
CREATE TABLE vendor_user_passkeys (
  credential_id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES vendor_users(id),
  public_key TEXT NOT NULL,
  counter INTEGER NOT NULL CHECK (counter >= 0),
  transports TEXT NOT NULL,
  created_at TEXT NOT NULL,
  last_used_at TEXT
) WITHOUT ROWID;
CREATE INDEX vendor_user_passkeys_user ON vendor_user_passkeys(user_id);

-- A ceremony's challenge: single use (deleted when checked), valid CHALLENGE_MINUTES.
CREATE TABLE desk_challenges (
  challenge TEXT PRIMARY KEY,
  purpose TEXT NOT NULL CHECK (purpose IN ('registration', 'authentication')),
  user_id INTEGER REFERENCES vendor_users(id),
  expires_at TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE desk_sessions (
  id_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES vendor_users(id),
  created_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  -- The absolute timeout: created_at plus SESSION_ABSOLUTE_HOURS, whatever the activity.
  ends_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX desk_sessions_user ON desk_sessions(user_id);
