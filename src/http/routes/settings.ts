import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services/index.js';
import { patchOnboardingInput } from '../../services/identity/index.js';
import { updateSettingsInput } from '../../services/workspaces/index.js';
import { requireActor } from '../auth-context.js';
import { parseInput } from '../../domain/validate.js';

type WorkspaceParams = { Params: { id: string } };

/** Workspace settings (admins) and the caller's onboarding checklist (SPEC.md 4.5). */
export function settingsRoutes(services: Services) {
  const { settings, onboarding } = services;
  return (app: FastifyInstance) => {
    app.get<WorkspaceParams>('/api/v1/workspaces/:id/admin/settings', async (request) =>
      settings.get(requireActor(request), request.params.id),
    );

    app.put<WorkspaceParams>('/api/v1/workspaces/:id/admin/settings', async (request) =>
      settings.update(
        requireActor(request),
        request.params.id,
        parseInput(updateSettingsInput, request.body),
      ),
    );

    app.get('/api/v1/users/me/onboarding', async (request) => onboarding.get(requireActor(request)));

    app.patch('/api/v1/users/me/onboarding', async (request) =>
      onboarding.update(requireActor(request), parseInput(patchOnboardingInput, request.body)),
    );
  };
}
