import type { WebSocket } from 'ws';
import { z } from 'zod';
import type { Actor } from '../domain/actor.js';
import { normalizePagePath } from '../domain/paths.js';
import { CAN } from '../domain/policy.js';
import { AppError } from '../errors.js';
import type { EventBus, Unsubscribe } from '../events/bus.js';
import type { HubMessage, WorkspaceEventType } from '../contract/events.js';
import { type EventType, type FolioEvent, INTERNAL_PAGE_FIELDS } from '../events/types.js';
import type { Logger } from '../logger.js';
import type { AccessService } from '../services/access.js';
import type { Clock } from '../lib/clock.js';
import { PageDirectory, PageViews } from './page-presence.js';
import { PRESENCE_TIMEOUT_MS, PresenceTracker } from './presence.js';
import { isYjsMessage } from '../coedit/messages.js';
import type { YjsChannel, YjsPeer } from './yjs-channel.js';

/**
 * The workspace events a WebSocket client sees (src/contract/events.ts); listing each type
 * of the contract exactly once is checked by the compiler, so an event added there is sent.
 */
const SENT_OVER_WEBSOCKET = {
  'page-created': true,
  'page-updated': true,
  'page-deleted': true,
  'page-moved': true,
  'presence-join': true,
  'presence-leave': true,
  'sync-status': true,
  'conflict-detected': true,
  'bulk-sync': true,
  'presence-update': true,
  'comment-changed': true,
  'change-request-opened': true,
  'change-request-reviewed': true,
  'change-request-merged': true,
  'change-request-closed': true,
} as const satisfies Record<WorkspaceEventType, true>;

/** The only bus events a WebSocket client ever sees. */
export const WS_EVENT_TYPES: ReadonlySet<EventType> = new Set<EventType>(
  Object.keys(SENT_OVER_WEBSOCKET) as WorkspaceEventType[],
);

export interface HubOptions {
  events: EventBus;
  access: AccessService;
  /** The display name shown beside a present user's page (`presence-update`). */
  userName: (userId: string) => Promise<string>;
  clock: Clock;
  logger: Logger;
  presenceTimeoutMs?: number;
  /** A client with more than this many bytes queued is dropped, not buffered forever. */
  maxBufferedBytes?: number;
  maxSubscriptionsPerSocket?: number;
  /** Real-time period of WebSocket pings and presence sweeps; 0 disables the timer (tests drive `sweep`). */
  heartbeatIntervalMs?: number;
  /** The co-editing channel (`yjs-*` messages); absent: such messages are refused like any unknown one. */
  yjs?: YjsChannel;
}

const clientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subscribe'), workspace_id: z.string().min(1).max(200) }),
  z.object({ type: z.literal('unsubscribe'), workspace_id: z.string().min(1).max(200) }),
  z.object({ type: z.literal('ping') }),
  // Additive to the documented protocol: which page of a subscribed workspace this tab shows (null: none).
  z.object({
    type: z.literal('viewing'),
    workspace_id: z.string().min(1).max(200),
    path: z.string().min(1).max(1100).nullable(),
  }),
]);

interface Client {
  socket: WebSocket;
  actor: Actor;
  /** Re-checks the connection's credentials (a logout since connecting ends it). */
  reauthenticate: () => Promise<Actor>;
  /** Workspace ids this socket is subscribed to. */
  subscriptions: Set<string>;
  /** The user's display name, looked up on the first subscribe. */
  name: string | null;
  lastSeen: number;
  /** Messages are handled one at a time, in order, so a subscribe is done before the next message. */
  queue: Promise<void>;
  /** This socket as the co-editing rooms see it. */
  peer: YjsPeer;
}

const OPEN = 1;

/**
 * The WebSocket hub: per-socket subscriptions, delivery
 * of bus events to the subscribers of their workspace, and presence. Presence
 * joins and leaves are themselves bus events, so with the Redis bus every
 * instance's subscribers see every instance's users.
 */
export class Hub {
  private readonly clients = new Set<Client>();
  private readonly byWorkspace = new Map<string, Set<Client>>();
  private readonly presence: PresenceTracker;
  private readonly pages = new PageDirectory();
  private readonly pageViews = new PageViews<Client>();
  private readonly maxBuffered: number;
  private readonly maxSubscriptions: number;
  private readonly presenceTimeoutMs: number;
  private readonly offBus: Unsubscribe;
  private readonly timer: NodeJS.Timeout | null;
  private sweeping: Promise<void> | null = null;

  constructor(private readonly options: HubOptions) {
    this.presenceTimeoutMs = options.presenceTimeoutMs ?? PRESENCE_TIMEOUT_MS;
    this.presence = new PresenceTracker(this.presenceTimeoutMs);
    this.maxBuffered = options.maxBufferedBytes ?? 1024 * 1024;
    this.maxSubscriptions = options.maxSubscriptionsPerSocket ?? 100;
    this.offBus = options.events.onAny((event) => this.deliver(event));
    const every = options.heartbeatIntervalMs ?? 30_000;
    this.timer = every > 0 ? setInterval(() => this.heartbeat(), every) : null;
    this.timer?.unref();
  }

  private now(): number {
    return this.options.clock.now().getTime();
  }

  /** Takes over an upgraded socket whose cookie named `actor`. */
  attach(socket: WebSocket, actor: Actor, reauthenticate: () => Promise<Actor>): void {
    const client = {
      socket,
      actor,
      reauthenticate,
      subscriptions: new Set(),
      name: null,
      lastSeen: this.now(),
      queue: Promise.resolve(),
    } as Omit<Client, 'peer'> as Client;
    client.peer = {
      get actor() {
        return client.actor;
      },
      send: (message) => this.send(client, JSON.stringify(message)),
      reauthenticate: async () => {
        try {
          client.actor = await client.reauthenticate();
        } catch (error) {
          if (error instanceof AppError && error.code === 'UNAUTHORIZED')
            client.socket.close(4401, 'Session ended');
          throw error;
        }
      },
    };
    this.clients.add(client);
    socket.on('message', (data, isBinary) => {
      this.beat(client);
      if (isBinary) return this.fail(client, 'VALIDATION_ERROR', 'Messages must be JSON text');
      const text = String(data);
      client.queue = client.queue
        .then(() => this.handle(client, text))
        .catch((error: unknown) => {
          this.options.logger.error({ err: error }, 'websocket message failed');
          this.fail(client, 'INTERNAL_ERROR', 'An internal error occurred');
        });
    });
    socket.on('pong', () => this.beat(client));
    socket.on('close', () => this.detach(client));
    socket.on('error', () => this.detach(client));
  }

  private beat(client: Client): void {
    client.lastSeen = this.now();
    for (const workspaceId of client.subscriptions) {
      this.presence.touch(workspaceId, client.actor.userId, client.lastSeen);
    }
  }

  private async handle(client: Client, text: string): Promise<void> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return this.fail(client, 'VALIDATION_ERROR', 'Messages must be JSON');
    }
    if (this.options.yjs && isYjsMessage(parsed)) return this.options.yjs.handle(client.peer, parsed);
    const result = clientMessage.safeParse(parsed);
    if (!result.success) {
      return this.fail(
        client,
        'VALIDATION_ERROR',
        'Expected { type: "subscribe" | "unsubscribe", workspace_id }, { type: "viewing", workspace_id, path } or { type: "ping" }',
      );
    }
    const message = result.data;
    if (message.type === 'ping')
      return this.send(client, JSON.stringify({ type: 'pong' } satisfies HubMessage));
    if (message.type === 'viewing') return this.view(client, message.workspace_id, message.path);
    if (message.type === 'unsubscribe') {
      const workspace = await this.options.access.findWorkspace(message.workspace_id);
      const id = workspace?.id ?? message.workspace_id;
      this.unsubscribe(client, id);
      return this.send(
        client,
        JSON.stringify({ type: 'unsubscribed', workspace_id: id } satisfies HubMessage),
      );
    }
    await this.subscribe(client, message.workspace_id);
  }

  private async subscribe(client: Client, requested: string): Promise<void> {
    let workspaceId: string;
    try {
      client.actor = await client.reauthenticate();
      // The same check as every HTTP read: another organization's user gets NOT_FOUND.
      const { workspace } = await this.options.access.require(client.actor, requested, CAN.read);
      workspaceId = workspace.id;
      client.name ??= await this.options.userName(client.actor.userId);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      this.fail(client, error.code, error.message, requested);
      if (error.code === 'UNAUTHORIZED') client.socket.close(4401, 'Session ended');
      return;
    }
    if (!client.subscriptions.has(workspaceId) && client.subscriptions.size >= this.maxSubscriptions) {
      return this.fail(
        client,
        'VALIDATION_ERROR',
        `At most ${this.maxSubscriptions} subscriptions per connection`,
      );
    }
    if (client.socket.readyState !== OPEN) return;
    client.subscriptions.add(workspaceId);
    let subscribers = this.byWorkspace.get(workspaceId);
    if (!subscribers) this.byWorkspace.set(workspaceId, (subscribers = new Set()));
    subscribers.add(client);
    this.send(client, JSON.stringify({ type: 'subscribed', workspace_id: workspaceId } satisfies HubMessage));
    // The current state on subscribing (rather than an HTTP route): it arrives in order with the
    // events that change it, so a client never applies a stale answer over a newer event.
    this.send(
      client,
      JSON.stringify({
        type: 'presence-snapshot',
        workspace_id: workspaceId,
        users: this.pages.snapshot(workspaceId),
        at: new Date(this.now()).toISOString(),
      } satisfies HubMessage),
    );
    if (this.presence.touch(workspaceId, client.actor.userId, this.now())) {
      this.options.events.emit('presence-join', { workspace_id: workspaceId, user_id: client.actor.userId });
    }
  }

  /** Records the page a socket shows and announces the user's page when it changed. */
  private async view(client: Client, requested: string, path: string | null): Promise<void> {
    const workspaceId = client.subscriptions.has(requested)
      ? requested
      : (await this.options.access.findWorkspace(requested))?.id;
    if (!workspaceId || !client.subscriptions.has(workspaceId)) {
      return this.fail(
        client,
        'VALIDATION_ERROR',
        'Subscribe to the workspace before saying which page you view',
      );
    }
    let page: string | null = null;
    if (path !== null) {
      try {
        page = normalizePagePath(path);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return this.fail(client, error.code, error.message, workspaceId);
      }
    }
    this.announcePage(
      client,
      workspaceId,
      this.pageViews.view(client, workspaceId, client.actor.userId, page),
    );
  }

  /** `presence-update` for a change `PageViews` reported (none before the name is known). */
  private announcePage(client: Client, workspaceId: string, change: { path: string | null } | null): void {
    if (!change || client.name === null) return;
    this.options.events.emit('presence-update', {
      workspace_id: workspaceId,
      user_id: client.actor.userId,
      name: client.name,
      path: change.path,
    });
  }

  private unsubscribe(client: Client, workspaceId: string): void {
    client.subscriptions.delete(workspaceId);
    this.announcePage(client, workspaceId, this.pageViews.drop(client, workspaceId, client.actor.userId));
    const subscribers = this.byWorkspace.get(workspaceId);
    subscribers?.delete(client);
    if (subscribers?.size === 0) this.byWorkspace.delete(workspaceId);
  }

  private detach(client: Client): void {
    if (!this.clients.delete(client)) return;
    this.options.yjs?.disconnect(client.peer);
    for (const workspaceId of [...client.subscriptions]) this.unsubscribe(client, workspaceId);
  }

  /** Sends or, when the client cannot keep up, drops it (a slow reader must not grow our memory). */
  private send(client: Client, data: string): void {
    const { socket } = client;
    if (socket.readyState !== OPEN) return;
    if (socket.bufferedAmount + Buffer.byteLength(data) > this.maxBuffered) {
      this.options.logger.warn(
        { user_id: client.actor.userId, buffered: socket.bufferedAmount },
        'dropping a websocket client that does not keep up',
      );
      this.detach(client);
      socket.terminate();
      return;
    }
    socket.send(data);
  }

  private fail(client: Client, error: string, message: string, workspaceId?: string): void {
    this.send(
      client,
      JSON.stringify({
        type: 'error',
        error,
        message,
        ...(workspaceId ? { workspace_id: workspaceId } : {}),
      } satisfies HubMessage),
    );
  }

  /** Sends a bus event to the subscribers of its workspace as `{ type, ...payload, at }`. */
  private deliver(event: FolioEvent): void {
    this.pages.apply(event);
    if (event.type === 'member-removed') {
      const { workspace_id, user_id } = event.payload;
      void this.revoke(workspace_id, user_id).catch((error: unknown) =>
        this.options.logger.warn({ err: error }, 'dropping a removed member’s subscriptions failed'),
      );
      return;
    }
    if (!WS_EVENT_TYPES.has(event.type)) return;
    const workspaceId = (event.payload as { workspace_id?: unknown }).workspace_id;
    if (typeof workspaceId !== 'string') return;
    const subscribers = this.byWorkspace.get(workspaceId);
    if (!subscribers?.size) return;
    // A page event's commit author (an email) and title are Folio's own: subscribers get the documented fields.
    const payload: Record<string, unknown> = { ...event.payload };
    for (const field of INTERNAL_PAGE_FIELDS) delete payload[field];
    const data = JSON.stringify({ type: event.type, ...payload, at: event.at });
    for (const client of [...subscribers]) this.send(client, data);
  }

  /**
   * Unsubscribes a user's sockets from a workspace they were removed from,
   * telling them why, and ends their presence there. Access is checked again
   * first, so a user who was let back in since keeps their subscription.
   */
  private async revoke(workspaceId: string, userId: string): Promise<void> {
    const affected = [...(this.byWorkspace.get(workspaceId) ?? [])].filter((c) => c.actor.userId === userId);
    const first = affected[0];
    if (first) {
      const workspace = await this.options.access.findWorkspace(workspaceId);
      if (workspace && (await this.options.access.roleIn(first.actor, workspace)) !== null) return;
    }
    const data = JSON.stringify({
      type: 'unsubscribed',
      workspace_id: workspaceId,
      reason: 'access_revoked',
    } satisfies HubMessage);
    for (const client of affected) {
      this.unsubscribe(client, workspaceId);
      this.send(client, data);
    }
    if (this.presence.leave(workspaceId, userId)) {
      this.options.events.emit('presence-leave', { workspace_id: workspaceId, user_id: userId });
    }
  }

  /** Unsubscribes everyone from a deleted workspace, telling them why. */
  private closeWorkspace(workspaceId: string): void {
    const subscribers = this.byWorkspace.get(workspaceId);
    this.presence.dropWorkspace(workspaceId);
    this.pages.dropWorkspace(workspaceId);
    if (!subscribers) return;
    const data = JSON.stringify({
      type: 'unsubscribed',
      workspace_id: workspaceId,
      reason: 'workspace_deleted',
    } satisfies HubMessage);
    for (const client of [...subscribers]) {
      this.unsubscribe(client, workspaceId);
      this.send(client, data);
    }
  }

  private heartbeat(): void {
    for (const client of this.clients) if (client.socket.readyState === OPEN) client.socket.ping();
    void this.sweep().catch((error: unknown) =>
      this.options.logger.warn({ err: error }, 'presence sweep failed'),
    );
  }

  /**
   * Ends what timed out, on the injected clock: sockets silent for the
   * presence timeout are terminated, users whose last heartbeat in a
   * workspace is that old leave it (`presence-leave`), and subscriptions to
   * workspaces deleted since are dropped. Runs on a timer; tests call it.
   */
  sweep(): Promise<void> {
    this.sweeping ??= this.sweepOnce().finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  private async sweepOnce(): Promise<void> {
    const now = this.now();
    for (const client of [...this.clients]) {
      if (now - client.lastSeen >= this.presenceTimeoutMs) {
        this.detach(client);
        client.socket.terminate();
      }
    }
    for (const { workspaceId, userId } of this.presence.expire(now)) {
      this.options.events.emit('presence-leave', { workspace_id: workspaceId, user_id: userId });
    }
    const subscribed = [...this.byWorkspace.keys()];
    if (subscribed.length === 0) return;
    const live = await this.options.access.liveWorkspaceIds(subscribed);
    for (const workspaceId of subscribed) if (!live.has(workspaceId)) this.closeWorkspace(workspaceId);
  }

  /** Connected sockets and present users on this instance (for health and tests). */
  stats(): { sockets: number; presence: number; subscriptions: number } {
    let subscriptions = 0;
    for (const subscribers of this.byWorkspace.values()) subscriptions += subscribers.size;
    return { sockets: this.clients.size, presence: this.presence.size, subscriptions };
  }

  /** Stops the timer and the bus listener and closes every socket. */
  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.offBus();
    for (const client of [...this.clients]) {
      this.detach(client);
      client.socket.close(1001, 'Server shutting down');
    }
  }
}
