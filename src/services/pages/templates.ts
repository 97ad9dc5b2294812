import type { Actor } from '../../domain/actor.js';
import { requireScope } from '../../domain/policy.js';
import { notFound } from '../../errors.js';
import { type Template, TEMPLATES } from './template-library.js';

/** A template as listed: enough to choose one. */
export interface TemplateSummary {
  id: string;
  name: string;
  description: string;
}

/**
 * The built-in page templates. Any signed-in caller may read them, whatever
 * their role: templates hold no workspace data.
 */
export function createTemplates(templates: readonly Template[] = TEMPLATES) {
  return {
    /** Every template, in a stable order. */
    list(actor: Actor): TemplateSummary[] {
      requireScope(actor, 'read');
      return templates.map(({ id, name, description }) => ({ id, name, description }));
    },

    /** One template's full content; NOT_FOUND for an unknown id. */
    get(actor: Actor, id: string): Template {
      requireScope(actor, 'read');
      const template = templates.find((t) => t.id === id);
      if (!template) throw notFound('Template');
      return structuredClone(template);
    },
  };
}
