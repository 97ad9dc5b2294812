import type { CoeditPeer } from './room.js';
import type { RelayEnvelope } from './relay.js';
import type { Rooms, RoomsDeps } from './rooms.js';

/**
 * The co-editing rooms, loaded (with Yjs) when a writer first joins a page rather than at
 * every start: a chunk of about 145 KB that was compiled and run before the server could
 * listen. Until then this instance holds no room, so what concerns only open rooms (a
 * socket leaving all of them, a change another instance relays, the statistics) has
 * nothing to do, exactly as the loaded rooms would with none open.
 */
export function lazyRooms(deps: RoomsDeps): Rooms {
  let rooms: Rooms | null = null;
  let loading: Promise<Rooms> | null = null;
  const load = (): Promise<Rooms> =>
    (loading ??= import('./rooms.js').then(({ createRooms }) => (rooms = createRooms(deps))));
  return {
    join: async (peer: CoeditPeer, workspaceId: string, path: string) =>
      (await load()).join(peer, workspaceId, path),
    update: async (peer: CoeditPeer, workspaceId: string, path: string, update: Uint8Array) =>
      (await load()).update(peer, workspaceId, path, update),
    awareness: async (peer: CoeditPeer, workspaceId: string, path: string, update: Uint8Array) =>
      (await load()).awareness(peer, workspaceId, path, update),
    resolved: async (peer: CoeditPeer, workspaceId: string, path: string) =>
      (await load()).resolved(peer, workspaceId, path),
    leave: async (peer: CoeditPeer, workspaceId: string, path: string) =>
      (await load()).leave(peer, workspaceId, path),
    leaveAll: (peer: CoeditPeer) => rooms?.leaveAll(peer),
    relayed: (message: RelayEnvelope) => rooms?.relayed(message),
    stats: async () => (rooms ? rooms.stats() : { rooms: 0, peers: 0 }),
    close: async () => {
      await loading?.catch(() => undefined);
      await rooms?.close();
    },
  };
}
