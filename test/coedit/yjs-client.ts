import * as Y from 'yjs';
import type { TestServer } from '../helpers/server.js';
import type { TestUser } from '../helpers/users.js';
import { WsClient, wsCookie } from '../collab/collab-helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON */

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));

/**
 * A co-editor over the real `/ws` socket: joins a page's room, keeps its own
 * Yjs document in step with the room, and types into it the way the web app
 * does (local change, then the update to the server).
 */
export class YjsTestClient {
  doc = new Y.Doc();
  workspaceId = '';
  epoch: string | null = null;
  listening = false;

  private constructor(
    public ws: WsClient,
    readonly path: string,
  ) {}

  static async connect(server: TestServer, user: TestUser): Promise<WsClient> {
    return WsClient.connect(server, (await wsCookie(server, user)).pair);
  }

  /** Connects as `user` and joins the room of `path` in `workspace`; answers the `yjs-joined` message. */
  static async join(server: TestServer, user: TestUser, workspace: string, path: string) {
    const client = new YjsTestClient(await YjsTestClient.connect(server, user), path);
    const joined = await client.join(workspace);
    return { client, joined };
  }

  get text(): string {
    return this.doc.getText('body').toString();
  }

  /** Joins (or joins again, keeping this document when the epoch is the same). */
  async join(workspace: string): Promise<any> {
    const before = this.ws.messages.length;
    this.ws.send({ type: 'yjs-join', workspace_id: workspace, path: this.path, epoch: this.epoch });
    const answer = await this.ws.waitFor(
      (m) =>
        this.ws.messages.indexOf(m) >= before &&
        (m.type === 'yjs-joined' || m.type === 'error' || m.type === 'yjs-unavailable'),
    );
    if (answer.type !== 'yjs-joined') return answer;
    if (answer.epoch !== this.epoch) this.doc = new Y.Doc();
    this.epoch = answer.epoch;
    this.workspaceId = answer.workspace_id;
    const vector = Y.encodeStateVectorFromUpdate(bytes(answer.state));
    Y.applyUpdate(this.doc, bytes(answer.state), 'server');
    // What this client holds that the room lacks (edits made while it was away).
    const missing = Y.encodeStateAsUpdate(this.doc, vector);
    if (missing.length > 2) this.sendUpdate(missing);
    if (!this.listening) {
      this.listening = true;
      this.ws.socket.on('message', (data) => {
        const m = JSON.parse(String(data));
        if (m.type === 'yjs-update' && m.path === this.path)
          Y.applyUpdate(this.doc, bytes(m.update), 'server');
      });
    }
    return answer;
  }

  /**
   * Connects again as `user` after its socket closed and joins with the epoch and document
   * it holds: what it typed meanwhile goes to the room as the Yjs update the room lacks.
   */
  async rejoin(server: TestServer, user: TestUser, workspace: string): Promise<any> {
    this.ws = await YjsTestClient.connect(server, user);
    this.listening = false;
    return this.join(workspace);
  }

  private sendUpdate(update: Uint8Array): void {
    this.ws.send({
      type: 'yjs-update',
      workspace_id: this.workspaceId,
      path: this.path,
      update: b64(update),
    });
  }

  /** Types `text` at `index` (clamped to the text's length) and sends the change. */
  insert(index: number, text: string): void {
    const ytext = this.doc.getText('body');
    const vector = Y.encodeStateVector(this.doc);
    ytext.insert(Math.min(index, ytext.length), text);
    this.sendUpdate(Y.encodeStateAsUpdate(this.doc, vector));
  }

  /** Deletes `length` characters at `index` and sends the change. */
  delete(index: number, length: number): void {
    const vector = Y.encodeStateVector(this.doc);
    this.doc.getText('body').delete(index, length);
    this.sendUpdate(Y.encodeStateAsUpdate(this.doc, vector));
  }

  /** Types at the end of the text. */
  insertEnd(text: string): void {
    this.insert(this.text.length, text);
  }

  /** Replaces the first `find` with `replacement`. */
  replace(find: string, replacement: string): void {
    const at = this.text.indexOf(find);
    if (at < 0) throw new Error(`${find} is not in the text`);
    const vector = Y.encodeStateVector(this.doc);
    this.doc.transact(() => {
      const ytext = this.doc.getText('body');
      ytext.delete(at, find.length);
      ytext.insert(at, replacement);
    });
    this.sendUpdate(Y.encodeStateAsUpdate(this.doc, vector));
  }

  leave(): void {
    this.ws.send({ type: 'yjs-leave', workspace_id: this.workspaceId, path: this.path });
  }

  close(): Promise<void> {
    return this.ws.close();
  }
}
