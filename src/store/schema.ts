import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * The database's shape as Kysely sees it. Both dialects store the same types:
 * timestamps as ISO 8601 text, booleans as 0/1 integers and structured values
 * as JSON text, so one code path serves SQLite and PostgreSQL alike.
 */
export interface Database {
  users: UsersTable;
  orgs: OrgsTable;
  org_members: OrgMembersTable;
  workspaces: WorkspacesTable;
  workspace_members: WorkspaceMembersTable;
  sessions: SessionsTable;
  refresh_tokens: RefreshTokensTable;
  api_keys: ApiKeysTable;
  reset_tokens: ResetTokensTable;
  outbox: OutboxTable;
  pages: PagesTable;
  ws_tickets: WsTicketsTable;
  page_revisions: PageRevisionsTable;
  page_aliases: PageAliasesTable;
  activity: ActivityTable;
  instance_settings: InstanceSettingsTable;
  search_documents: SearchDocumentsTable;
  invitations: InvitationsTable;
  share_links: ShareLinksTable;
  comments: CommentsTable;
  user_onboarding: UserOnboardingTable;
  doc_versions: DocVersionsTable;
  doc_version_pages: DocVersionPagesTable;
  custom_domains: CustomDomainsTable;
  page_views: PageViewsTable;
  site_searches: SiteSearchesTable;
  analytics_salts: AnalyticsSaltsTable;
  workspace_sync: WorkspaceSyncTable;
  sync_conflicts: SyncConflictsTable;
  user_identities: UserIdentitiesTable;
  auth_flows: AuthFlowsTable;
  auth_claims: AuthClaimsTable;
  passkey_credentials: PasskeyCredentialsTable;
  passkey_challenges: PasskeyChallengesTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  change_requests: ChangeRequestsTable;
  change_request_reviews: ChangeRequestReviewsTable;
  change_request_review_comments: ChangeRequestReviewCommentsTable;
  billing_subscriptions: BillingSubscriptionsTable;
  stripe_events: StripeEventsTable;
  admin_audit: AdminAuditTable;
}

export type Flag = 0 | 1;

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  handle: string;
  password_hash: string | null;
  is_platform_owner: Flag;
  /** Bumped to invalidate every unexpired access token of the user (logout, reset, reuse). */
  session_epoch: number;
  failed_logins: number;
  locked_until: string | null;
  created_at: string;
  updated_at: string;
  /** Set when the account was deleted (Cloud GDPR, migration 0016); the row keeps no personal data. */
  deleted_at: string | null;
  /** 0 when the user registered through an older layout that had no terms to accept. */
  terms_accepted: Generated<Flag>;
}

export interface OrgsTable {
  id: string;
  handle: string;
  name: string;
  plan: string;
  created_at: string;
  /** JSON `{ plan, expires_at, note }` set by the platform owner (migration 0016). */
  subscription_override?: string | null;
  /** JSON `{ bucket: limit }` per-organization rate limits (migration 0016). */
  rate_limits?: string | null;
}

export interface OrgMembersTable {
  org_id: string;
  user_id: string;
  role: string;
  created_at: string;
}

export interface WorkspacesTable {
  id: string;
  org_id: string;
  name: string;
  slug: string;
  git_remote: string | null;
  git_branch: string;
  sync_status: string;
  /** JSON: the API's settings keys. */
  settings: string;
  webhook_secret: string;
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WorkspaceMembersTable {
  workspace_id: string;
  user_id: string;
  role: string;
  created_at: string;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  device: string;
  ip: string;
  created_at: string;
  last_active_at: string;
  expires_at: string;
  /** The JWT key the session was opened under; null (or another key) means it has ended. */
  key_id: string | null;
  /** The platform owner who opened this session as its user (migration 0016). */
  impersonated_by?: string | null;
}

/** Every refresh token ever issued; a used one that comes back is a reuse. */
export interface RefreshTokensTable {
  token_hash: string;
  session_id: string;
  user_id: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  org_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  /** JSON array of scope strings. */
  scopes: string;
  expires_at: number | null;
  last_used_at: string | null;
  created_at: string;
}

export interface ResetTokensTable {
  token_hash: string;
  user_id: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface OutboxTable {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  attempts: number;
  next_attempt_at: string;
  sent_at: string | null;
  last_error: string | null;
  created_at: string;
}

/** Raised with every change to a workspace's rows in `pages` (migration 0011). */
export interface PageRevisionsTable {
  workspace_id: string;
  revision: number;
}

/** The index of one page file; the file itself is the truth. */
export interface PagesTable {
  id: string;
  workspace_id: string;
  path: string;
  title: string;
  description: string;
  /** JSON array of tags. */
  tags: string;
  status: string;
  sort_order: number;
  content_hash: string;
  frontmatter_hash: string;
  /** Last invalid-frontmatter message, or null when the file parses. */
  frontmatter_error: string | null;
  /** Strict mode: invalid frontmatter restricts the page to admins. */
  restricted: Flag;
  created_at: string;
  updated_at: string;
  updated_by: string | null;
}

export interface PageAliasesTable {
  workspace_id: string;
  old_path: string;
  page_id: string;
  created_at: string;
}

export interface ActivityTable {
  id: string;
  workspace_id: string;
  action: string;
  path: string | null;
  page_id: string | null;
  actor_id: string | null;
  /** JSON object. */
  details: string;
  created_at: string;
}

export interface InstanceSettingsTable {
  key: string;
  value: string;
}

/**
 * The portable half of the search index (src/search/). Each dialect adds its own
 * structures in `SearchIndex.init()`; they are not part of this type.
 */
export interface SearchDocumentsTable {
  page_id: string;
  workspace_id: string;
  path: string;
  title: string;
  description: string;
  /** Tags joined by spaces: search text, not structured data. */
  tags: string;
  body: string;
  status: string;
  restricted: Flag;
}

/** A pending, accepted or revoked workspace invitation; only the token's SHA-256 is kept. */
export interface InvitationsTable {
  id: string;
  workspace_id: string;
  email: string;
  role: string;
  token_hash: string;
  invited_by: string | null;
  expires_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
  revoked_at: string | null;
  created_at: string;
}

/** A join link; `uses` only grows, by a conditional UPDATE, so `max_uses` holds under concurrency. */
export interface ShareLinksTable {
  id: string;
  workspace_id: string;
  token_hash: string;
  role: string;
  expires_at: string | null;
  max_uses: number | null;
  uses: number;
  created_by: string | null;
  revoked_at: string | null;
  created_at: string;
}

/** A page comment, keyed by page_id so it follows the page across moves. */
export interface CommentsTable {
  id: string;
  workspace_id: string;
  page_id: string;
  /** The thread's root comment; null for a root. */
  parent_id: string | null;
  author_id: string;
  /** Markdown as written. */
  body: string;
  /** JSON array of mentioned user ids. */
  mentions: string;
  resolved: Flag;
  resolved_by: string | null;
  resolved_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The per-user onboarding checklist. */
export interface UserOnboardingTable {
  user_id: string;
  /** JSON object of step name -> boolean. */
  steps: string;
  dismissed: Flag;
  updated_at: string;
}

/** A named documentation version: published pages frozen under a git tag (migration 0005). */
export interface DocVersionsTable {
  id: string;
  workspace_id: string;
  slug: string;
  name: string;
  tag: string;
  commit_sha: string;
  page_count: number;
  created_by: string | null;
  created_at: string;
}

/** One page frozen in a version; its text is read from git at `doc_versions.tag`. */
export interface DocVersionPagesTable {
  version_id: string;
  path: string;
  page_id: string;
  content_hash: string;
  title: string;
}

/** A workspace's custom domain and its TXT verification state. */
export interface CustomDomainsTable {
  workspace_id: string;
  domain: string;
  token: string;
  /** `pending` or `verified`. */
  status: string;
  verified_at: string | null;
  checked_at: string | null;
  created_at: string;
}

/** One consented page view on a published site; `visitor` is a daily-salted hash, never an IP. */
export interface PageViewsTable {
  id: string;
  workspace_id: string;
  path: string;
  visitor: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  created_at: string;
}

/** One consented search on a published site. */
export interface SiteSearchesTable {
  id: string;
  workspace_id: string;
  query: string;
  results: number;
  visitor: string;
  day: string;
  created_at: string;
}

/** The analytics salt of the current UTC day; older ones are deleted. */
export interface AnalyticsSaltsTable {
  day: string;
  salt: string;
}

/** A workspace's git sync state and remote credentials (one row, created on first use). */
export interface WorkspaceSyncTable {
  workspace_id: string;
  last_sync_at: string | null;
  /** Redacted: never a credential. */
  last_error: string | null;
  last_error_at: string | null;
  git_username: string | null;
  /** Encrypted with DATA_DIR/git-credentials.key (see services/git-remote.ts); never returned. */
  git_password: string | null;
  credentials_updated_at: string | null;
  updated_at: string;
}

/** A merge conflict found by a pull; open while `resolved_at` is null. */
export interface SyncConflictsTable {
  id: string;
  workspace_id: string;
  path: string;
  page_id: string;
  /** `sha256:` of each side's file as downloaded; null where that side deleted the file. */
  ours_hash: string | null;
  theirs_hash: string | null;
  /** Compact UTC timestamp, e.g. 20250115T103045Z. */
  stamp: string;
  created_at: string;
  resolved_at: string | null;
  resolved_by: string | null;
  /** `ours`, `theirs`, `content` (merged by a user), `manual` (by hand) or `superseded`. */
  resolution: string | null;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type WorkspaceRow = Selectable<WorkspacesTable>;
export type PageRow = Selectable<PagesTable>;
export type ActivityRow = Selectable<ActivityTable>;
export type SyncConflictRow = Selectable<SyncConflictsTable>;
export type _Generated<T> = Generated<T>;

/** A user's account at an identity provider; (provider, subject) is unique. */
export interface UserIdentitiesTable {
  id: string;
  user_id: string;
  provider: string;
  subject: string;
  email: string;
  created_at: string;
  last_used_at: string | null;
}

/** A started provider sign-in, until its callback; only hashes of the state and browser binding. */
export interface AuthFlowsTable {
  state_hash: string;
  provider: string;
  binding_hash: string;
  nonce: string;
  code_verifier: string;
  created_at: string;
  expires_at: string;
}

/** What a provider callback established, until the web app claims it with its one-time code. */
export interface AuthClaimsTable {
  code_hash: string;
  /** `signin` (a linked identity), `signup` (a new account) or `link` (an existing account must confirm). */
  kind: 'signin' | 'signup' | 'link';
  provider: string;
  subject: string;
  email: string;
  name: string;
  user_id: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A registered passkey: only its public key is stored (base64url, COSE). */
export interface PasskeyCredentialsTable {
  id: string;
  user_id: string;
  /** The authenticator's credential id, base64url; unique. */
  credential_id: string;
  public_key: string;
  /** The last signature counter seen; a lower one means a cloned authenticator. */
  counter: number;
  /** JSON array of transports the authenticator named at registration. */
  transports: string;
  /** `singleDevice` or `multiDevice` (synced). */
  device_type: string;
  backed_up: Flag;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** A begun passkey ceremony's challenge, until its finish step uses it or it expires. */
export interface PasskeyChallengesTable {
  challenge: string;
  purpose: 'register' | 'login';
  /** The registering user, or the user an email hint named for a sign-in. */
  user_id: string | null;
  created_at: string;
  expires_at: string;
}

/** A workspace's outbound webhook (migration 0010). */
export interface WebhooksTable {
  id: string;
  workspace_id: string;
  url: string;
  /** JSON array of event names. */
  events: string;
  /** Sealed with DATA_DIR/webhook-secrets.key; never returned after creation. */
  secret: string;
  active: Flag;
  /** Start of an unbroken run of failed deliveries; null after a success. */
  failing_since: string | null;
  deactivated_reason: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export type WebhookRow = Selectable<WebhooksTable>;

/** One delivery: queued, then the log of how it went. */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event: string;
  body: string;
  status: 'pending' | 'delivered' | 'failed';
  attempt: number;
  next_attempt_at: string;
  claimed_at: string | null;
  response_status: number | null;
  duration_ms: number | null;
  error: string | null;
  created_at: string;
  delivered_at: string | null;
}

export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;

/** A change request: page edits on branch `folio/cr/<number>` (migration 0012). */
export interface ChangeRequestsTable {
  id: string;
  workspace_id: string;
  number: number;
  title: string;
  description: string;
  status: 'open' | 'merged' | 'closed';
  author_id: string | null;
  /** The live commit the branch started from. */
  base_commit: string;
  /** The branch's last commit as Folio made it. */
  head_commit: string;
  merge_commit: string | null;
  merged_by: string | null;
  closed_by: string | null;
  created_at: string;
  updated_at: string;
  merged_at: string | null;
  closed_at: string | null;
}

export type ChangeRequestRow = Selectable<ChangeRequestsTable>;

/** A review of a change request. */
export interface ChangeRequestReviewsTable {
  id: string;
  change_request_id: string;
  reviewer_id: string | null;
  verdict: 'approve' | 'request_changes' | 'comment';
  body: string;
  created_at: string;
}

export type ChangeRequestReviewRow = Selectable<ChangeRequestReviewsTable>;

/** An inline comment of a review on one line of a page (the line number in the request's version). */
export interface ChangeRequestReviewCommentsTable {
  id: string;
  review_id: string;
  page: string;
  line: number;
  body: string;
}

export type ChangeRequestReviewCommentRow = Selectable<ChangeRequestReviewCommentsTable>;

/**
 * An organization's Stripe customer and subscription (Cloud edition). `state_at` is the
 * Stripe `created` time (Unix seconds) of the newest event applied, so an older event
 * that arrives late changes nothing.
 */
export interface BillingSubscriptionsTable {
  org_id: string;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  plan: string;
  status: string;
  current_period_end: string | null;
  cancel_at_period_end: Flag;
  /** After a failed payment: when the paid plan stops applying unless an invoice is paid. */
  grace_until: string | null;
  state_at: number;
  updated_at: string;
}

export type BillingSubscriptionRow = Selectable<BillingSubscriptionsTable>;

/** Every Stripe event received, once: the dedupe table and the platform owner's recent log. */
export interface StripeEventsTable {
  id: string;
  type: string;
  /** Stripe's `created` (Unix seconds). */
  created: number;
  org_id: string | null;
  /** `applied`, `stale` (older than the state already applied) or `ignored` (nothing to do). */
  outcome: string;
  received_at: string;
}

/** One action of the platform owner's administration (migration 0016); never updated. */
export interface AdminAuditTable {
  id: string;
  /** The platform owner who acted. */
  actor_id: string;
  /** e.g. `org_plan_changed`, `user_impersonated`, `user_deleted`. */
  action: string;
  /** `org`, `user` or `domain`. */
  target_type: string;
  target_id: string;
  /** JSON object. */
  details: string;
  created_at: string;
}

/** A Layout C WebSocket ticket (hash only), valid 30 seconds and spent on first use. */
export interface WsTicketsTable {
  ticket_hash: string;
  user_id: string;
  org_id: string;
  session_id: string | null;
  session_epoch: number;
  expires_at: string;
}
