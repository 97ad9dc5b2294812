import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../services/index.js';
import { patchOnboardingInput } from '../../services/identity/index.js';
import { updateSettingsInput } from '../../services/workspaces/index.js';
import { navigationInfo, onboardingState, workspaceSettings } from '../../contract/settings.js';
import { requireActor, requireSignedIn } from '../auth-context.js';
import { workspaceParams } from '../route-params.js';

/** Workspace settings (admins) and the caller's onboarding checklist. */
export function settingsRoutes(services: Services) {
  const { settings, onboarding, navigation } = services;
  return (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const path = '/api/v1/workspaces/:id/admin/settings';
    app.get(
      path,
      { schema: { params: workspaceParams, response: { 200: workspaceSettings } } },
      async (request) => settings.get(requireActor(request), request.params.id),
    );

    app.put(
      path,
      {
        schema: { params: workspaceParams, body: updateSettingsInput, response: { 200: workspaceSettings } },
        preValidation: requireSignedIn,
      },
      async (request) => settings.update(requireActor(request), request.params.id, request.body),
    );

    // Which docs tool's navigation the site follows, and what was found (the setting is `nav_source`).
    app.get(
      '/api/v1/workspaces/:id/admin/navigation',
      { schema: { params: workspaceParams, response: { 200: navigationInfo } } },
      async (request) => navigation.get(requireActor(request), request.params.id),
    );

    app.get(
      '/api/v1/users/me/onboarding',
      { schema: { response: { 200: onboardingState } } },
      async (request) => onboarding.get(requireActor(request)),
    );

    app.patch(
      '/api/v1/users/me/onboarding',
      {
        schema: { body: patchOnboardingInput, response: { 200: onboardingState } },
        preValidation: requireSignedIn,
      },
      async (request) => onboarding.update(requireActor(request), request.body),
    );
  };
}
