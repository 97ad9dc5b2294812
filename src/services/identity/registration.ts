import { forbidden, invalid } from '../../errors.js';
import type { Store } from '../../store/database.js';
import { anyUserExists } from '../../store/repositories/users.js';
import type { InvitationsService, JoinStep } from '../collab/invitations.js';
import type { ShareLinksService } from '../collab/share-links.js';

/** REGISTRATION: who may create an account. */
export const REGISTRATION_MODES = ['open', 'invite-only', 'closed'] as const;
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];

export interface RegistrationTokens {
  invitation_token?: string | undefined;
  share_token?: string | undefined;
}

/**
 * Decides whether a registration may go ahead. The first account of an
 * instance always may (otherwise nobody could set it up). After that, `open`
 * admits anyone, `invite-only` only a registration carrying a valid invitation
 * (for the same email) or share-link token, and `closed` nobody (403). A valid
 * token also makes the new user a member of its workspace, in any mode.
 */
export function createRegistrationPolicy(deps: {
  store: Store;
  mode: RegistrationMode;
  invitations: Pick<InvitationsService, 'prepareJoin'>;
  shareLinks: Pick<ShareLinksService, 'prepareJoin'>;
}) {
  return {
    /** Throws unless admitted; answers the step joining the token's workspace, if one was sent. */
    async admit(email: string, tokens: RegistrationTokens): Promise<JoinStep | null> {
      const first = !(await anyUserExists(deps.store.db));
      if (!first && deps.mode === 'closed') {
        throw forbidden('Registration is closed on this instance; ask its administrator for an account');
      }
      if (tokens.invitation_token && tokens.share_token) {
        throw invalid('share_token', 'Send an invitation token or a share token, not both');
      }
      if (tokens.invitation_token) {
        return deps.invitations.prepareJoin(tokens.invitation_token, email, 'invitation_token');
      }
      if (tokens.share_token) return deps.shareLinks.prepareJoin(tokens.share_token, 'share_token');
      if (!first && deps.mode === 'invite-only') {
        throw forbidden('Registration on this instance needs an invitation or a share link');
      }
      return null;
    },
  };
}

export type RegistrationPolicy = ReturnType<typeof createRegistrationPolicy>;
