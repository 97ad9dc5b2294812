import type { Clock } from '../../lib/clock.js';
import type { Store } from '../../store/database.js';
import type { ClientInfo } from '../identity/index.js';
import type { TokenPair } from '../identity/auth.js';
import type { PasswordHasher } from '../identity/passwords.js';
import type { HealthService } from '../operations/health.js';
import type { CustomDomainsService } from '../publishing/custom-domains.js';
import { listAudit, listAuditInput } from './admin-audit.js';
import { createAdminOrgs } from './admin-orgs.js';
import { createAdminPlatform } from './admin-platform.js';
import { createAdminUsers } from './admin-users.js';
import { createGdpr } from './gdpr.js';
import { createImpersonation } from './impersonation.js';
import type { Actor } from '../../domain/actor.js';
import { requirePlatformOwner } from '../../domain/platform-policy.js';
import { parseInput } from '../../domain/validate.js';

export { deleteAccountInput, type Download } from './gdpr.js';
export { listAuditInput } from './admin-audit.js';
export {
  listOrgsInput,
  rateLimitsInput,
  setPlanInput,
  subscriptionOverrideInput,
  PLANS,
} from './admin-orgs.js';
export { impersonateInput, listUsersInput } from './admin-users.js';
export { growthInput, listDomainsInput } from './admin-platform.js';
export { DELETED_USER_NAME } from './account-deletion.js';

export interface CloudDeps {
  store: Store;
  clock: Clock;
  dataDir: string;
  passwords: PasswordHasher;
  health: HealthService;
  customDomains: CustomDomainsService;
  signIn(userId: string, client: ClientInfo): Promise<TokenPair>;
  sessionOf(accessToken: string): Promise<string>;
  /** Billing's hook for a plan changed by the platform owner (Cloud edition only). */
  onPlanChange?: (orgId: string) => void;
}

/**
 * The Cloud edition's GDPR endpoints and the platform owner's administration. Built in
 * every edition (they cost nothing idle); only `EDITION=cloud` registers their routes.
 */
export function createCloudServices(deps: CloudDeps) {
  const { store, clock } = deps;
  return {
    gdpr: createGdpr({ store, clock, passwords: deps.passwords, dataDir: deps.dataDir }),
    impersonation: createImpersonation({ store, clock }),
    adminOrgs: createAdminOrgs({ store, clock, dataDir: deps.dataDir, onPlanChange: deps.onPlanChange }),
    adminUsers: createAdminUsers({ store, clock, sign: { signIn: deps.signIn, sessionOf: deps.sessionOf } }),
    adminPlatform: createAdminPlatform({
      store,
      clock,
      health: deps.health,
      customDomains: deps.customDomains,
    }),
    adminAudit: {
      /** The platform owner's audit log, newest first. */
      async list(actor: Actor, input: unknown) {
        requirePlatformOwner(actor, 'read');
        return listAudit(store.db, parseInput(listAuditInput, input));
      },
    },
  };
}

export type CloudServices = ReturnType<typeof createCloudServices>;
