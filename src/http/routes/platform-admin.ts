import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  growthInput,
  impersonateInput,
  listAuditInput,
  listDomainsInput,
  listOrgsInput,
  listUsersInput,
  rateLimitsInput,
  setPlanInput,
  subscriptionOverrideInput,
} from '../../services/cloud/index.js';
import type { Services } from '../../services/index.js';
import { notFound } from '../../errors.js';
import { clientInfo, requireActor } from '../auth-context.js';
import { setSessionCookies } from '../cookies.js';
import { idParams } from '../route-params.js';
import { sendZip } from './gdpr.js';
import { noContent, zipFile } from '../../contract/answers.js';
import { adminDomainChecked, adminDomainList } from '../../contract/custom-domains.js';
import {
  adminUserDetails,
  adminUserList,
  auditLog,
  impersonationTokens,
  orgDetails,
  orgList,
  platformGrowth,
  platformHealth,
  platformTotals,
} from '../../contract/platform-admin.js';
import { ownScope } from '../route-scopes.js';

const org = { 200: orgDetails };

const orgParams = z.object({ id: z.string().describe("The organization's id or handle") });
const domainParams = z.object({ domain: z.string().describe('The custom domain') });

/**
 * `/api/v1/admin/*` (Cloud): the platform owner's administration of organizations, users,
 * custom domains, health and growth, and its audit log. Everyone else gets 404 from the
 * services. Billing's overview lives with billing.
 */
export function platformAdminRoutes(services: Services) {
  const { adminOrgs, adminUsers, adminPlatform, adminAudit } = services.cloud;
  return ownScope((scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    // Before any input is validated: to anyone but the platform owner these routes do not exist.
    scope.addHook('preValidation', async (request) => {
      if (!requireActor(request).isPlatformOwner) throw notFound();
    });
    const orgs = '/api/v1/admin/orgs';
    const users = '/api/v1/admin/users';

    app.get(orgs, { schema: { querystring: listOrgsInput, response: { 200: orgList } } }, async (request) =>
      adminOrgs.list(requireActor(request), request.query),
    );
    app.get(`${orgs}/:id`, { schema: { params: orgParams, response: org } }, async (request) =>
      adminOrgs.get(requireActor(request), request.params.id),
    );
    app.put(
      `${orgs}/:id/plan`,
      { schema: { params: orgParams, body: setPlanInput, response: org } },
      async (request) => adminOrgs.setPlan(requireActor(request), request.params.id, request.body),
    );
    app.put(
      `${orgs}/:id/subscription`,
      { schema: { params: orgParams, body: subscriptionOverrideInput, response: org } },
      async (request) =>
        adminOrgs.overrideSubscription(requireActor(request), request.params.id, request.body),
    );
    app.delete(
      `${orgs}/:id/subscription`,
      { schema: { params: orgParams, response: org } },
      async (request) => adminOrgs.clearSubscriptionOverride(requireActor(request), request.params.id),
    );
    app.put(
      `${orgs}/:id/rate-limits`,
      { schema: { params: orgParams, body: rateLimitsInput, response: org } },
      async (request) => adminOrgs.setRateLimits(requireActor(request), request.params.id, request.body),
    );
    const orgExport = { 200: zipFile("The organization's data in a ZIP") };
    app.get(
      `${orgs}/:id/export`,
      { schema: { params: orgParams, response: orgExport } },
      async (request, reply) =>
        sendZip(reply, await adminOrgs.exportOrg(requireActor(request), request.params.id)),
    );

    app.get(
      users,
      { schema: { querystring: listUsersInput, response: { 200: adminUserList } } },
      async (request) => adminUsers.list(requireActor(request), request.query),
    );
    app.get(
      `${users}/:id`,
      { schema: { params: idParams, response: { 200: adminUserDetails } } },
      async (request) => adminUsers.get(requireActor(request), request.params.id),
    );
    const userExport = { 200: zipFile('Everything Folio holds about the user, in a ZIP') };
    app.get(
      `${users}/:id/export`,
      { schema: { params: idParams, response: userExport } },
      async (request, reply) =>
        sendZip(reply, await adminUsers.exportUser(requireActor(request), request.params.id)),
    );
    app.delete(
      `${users}/:id`,
      { schema: { params: idParams, response: { 204: noContent } } },
      async (request, reply) => {
        await adminUsers.deleteUser(requireActor(request), request.params.id);
        return reply.code(204).send();
      },
    );
    app.post(
      `${users}/:id/impersonate`,
      { schema: { params: idParams, body: impersonateInput, response: { 200: impersonationTokens } } },
      async (request, reply) => {
        const tokens = await adminUsers.impersonate(
          requireActor(request),
          request.params.id,
          request.body,
          clientInfo(request),
        );
        setSessionCookies(reply, tokens);
        return tokens;
      },
    );

    const audit = { querystring: listAuditInput, response: { 200: auditLog } };
    app.get('/api/v1/admin/audit-log', { schema: audit }, async (request) =>
      adminAudit.list(requireActor(request), request.query),
    );

    const domains = { querystring: listDomainsInput, response: { 200: adminDomainList } };
    app.get('/api/v1/admin/domains', { schema: domains }, async (request) =>
      adminPlatform.listDomains(requireActor(request), request.query),
    );
    const verify = { params: domainParams, response: { 200: adminDomainChecked } };
    app.post('/api/v1/admin/domains/:domain/verify', { schema: verify }, async (request) =>
      adminPlatform.verifyDomain(requireActor(request), request.params.domain),
    );
    app.delete(
      '/api/v1/admin/domains/:domain',
      { schema: { params: domainParams, response: { 204: noContent } } },
      async (request, reply) => {
        await adminPlatform.deleteDomain(requireActor(request), request.params.domain);
        return reply.code(204).send();
      },
    );

    app.get('/api/v1/admin/health', { schema: { response: { 200: platformHealth } } }, async (request) =>
      adminPlatform.health(requireActor(request)),
    );
    app.get(
      '/api/v1/admin/analytics/overview',
      { schema: { response: { 200: platformTotals } } },
      async (request) => adminPlatform.overview(requireActor(request)),
    );
    const growth = { querystring: growthInput, response: { 200: platformGrowth } };
    app.get('/api/v1/admin/analytics/growth', { schema: growth }, async (request) =>
      adminPlatform.growth(requireActor(request), request.query),
    );
  });
}
