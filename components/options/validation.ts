import { enabledSiteSchema, type ConfiguredService } from '@/lib/core/schemas/settings';
import { SETTINGS_LIMITS } from '@/lib/core/limits';
import { API_PATH_TEMPLATE, SHARE_PATH_TEMPLATE, type ServiceConfig } from '@/lib/core/services';
import { serviceConfigSchema } from '@/lib/core/schemas/service';

/**
 * Form validation for the options page (framework-free). Errors are data, translated where they are
 * shown; each one names the field it belongs to.
 */

export const TOKEN_PLACEHOLDER = '{token}';

export interface ServiceDraft {
  name: string;
  origin: string;
  apiPathTemplate: string;
  /** One template per line, as typed in the textarea. */
  sharePathTemplates: string;
}

export type ServiceField = keyof ServiceDraft;
export const SERVICE_FIELDS: readonly ServiceField[] = ['name', 'origin', 'apiPathTemplate', 'sharePathTemplates'];

export type ServiceFieldError =
  | { field: 'name' }
  | { field: 'origin'; takenBy?: string }
  | { field: 'apiPathTemplate' }
  | { field: 'sharePathTemplates'; line: number };

export type ServiceErrors = Partial<Record<ServiceField, ServiceFieldError>>;

export const EMPTY_SERVICE_DRAFT: ServiceDraft = {
  name: '',
  origin: '',
  apiPathTemplate: API_PATH_TEMPLATE,
  sharePathTemplates: SHARE_PATH_TEMPLATE,
};

export function draftFromService(service: ServiceConfig): ServiceDraft {
  return {
    name: service.name,
    origin: service.origin,
    apiPathTemplate: service.apiPathTemplate,
    sharePathTemplates: service.sharePathTemplates.join('\n'),
  };
}

/**
 * Forgives what people paste: surrounding spaces, a trailing slash, upper-case host names. Anything
 * with a real path, query or credentials is left as typed so the schema rejects it.
 */
export function normalizeOrigin(input: string): string {
  const trimmed = input.trim();
  try {
    const url = new URL(trimmed);
    const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
    return bare && /^https?:$/.test(url.protocol) ? url.origin : trimmed;
  } catch {
    return trimmed;
  }
}

export type ServiceValidation = { ok: true; service: ServiceConfig } | { ok: false; errors: ServiceErrors };

export function validateServiceDraft(
  draft: ServiceDraft,
  context: { id: string; others: readonly ConfiguredService[] },
): ServiceValidation {
  // Keep original line numbers so an error can point at the line the user typed.
  const shareLines = draft.sharePathTemplates
    .split('\n')
    .map((text, index) => ({ text: text.trim(), line: index + 1 }))
    .filter((entry) => entry.text !== '');
  const candidate = {
    id: context.id,
    name: draft.name.trim(),
    origin: normalizeOrigin(draft.origin),
    apiPathTemplate: draft.apiPathTemplate.trim(),
    sharePathTemplates: shareLines.map((entry) => entry.text),
  };
  const errors: ServiceErrors = {};
  const parsed = serviceConfigSchema.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [field, index] = issue.path;
      if (field === 'name' && !errors.name) errors.name = { field: 'name' };
      if (field === 'origin' && !errors.origin) errors.origin = { field: 'origin' };
      if (field === 'apiPathTemplate' && !errors.apiPathTemplate) errors.apiPathTemplate = { field: 'apiPathTemplate' };
      if (field === 'sharePathTemplates' && !errors.sharePathTemplates) {
        const line = typeof index === 'number' ? (shareLines[index]?.line ?? 1) : 1;
        errors.sharePathTemplates = { field: 'sharePathTemplates', line };
      }
    }
  }
  if (!errors.origin) {
    const owner = context.others.find((service) => service.id !== context.id && service.origin === candidate.origin);
    if (owner) errors.origin = { field: 'origin', takenBy: owner.name };
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, service: parsed.data };
}

export type SiteValidation =
  { ok: true; site: string } | { ok: false; problem: 'invalid' | 'duplicate' | 'too-many'; site: string };

export function validateSite(input: string, existing: readonly string[]): SiteValidation {
  const parsed = enabledSiteSchema.safeParse(input);
  if (!parsed.success) return { ok: false, problem: 'invalid', site: input.trim() };
  if (existing.includes(parsed.data)) return { ok: false, problem: 'duplicate', site: parsed.data };
  if (existing.length >= 200) return { ok: false, problem: 'too-many', site: parsed.data };
  return { ok: true, site: parsed.data };
}

/** Host access the content script needs on a site: any scheme, any port (patterns cannot name ports everywhere). */
export function sitePermissionPattern(site: string): string {
  const host = site.replace(/:\d+$/, '');
  return `*://${host}/*`;
}

export function parseRequestBudget(input: string): number | null {
  const { min, max } = SETTINGS_LIMITS.requestBudgetPerMinute;
  if (!/^\s*\d+\s*$/.test(input)) return null;
  const value = Number(input);
  return Number.isInteger(value) && value >= min && value <= max ? value : null;
}

/** Choices offered in the selects, always including the current value (an administrator may set any). */
export const HOVER_DELAY_CHOICES_MS = [300, 400, 500, 700, 1000, 1500] as const;
export const CACHE_TTL_CHOICES_MIN = [30, 60, 120, 180, 360] as const;

export function choicesWith(choices: readonly number[], current: number): number[] {
  return [...new Set([...choices, current])].sort((a, b) => a - b);
}

export function newServiceId(random: () => string = () => crypto.randomUUID()): string {
  return `user-${random().slice(0, 8)}`;
}
