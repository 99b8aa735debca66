import { localeFor, type Language } from './language';

/**
 * A tiny typed translator over flat catalogs. Framework-free and dependency-free: any slice of the
 * catalog (e.g. the badge strings alone, for the content script) can be given to `createTranslator`.
 *
 * - `{name}` placeholders are replaced by params (numbers are formatted for the locale); a placeholder
 *   without a param is left as written.
 * - Plurals: a key `base#one`, `base#other` (any `Intl.LDMLPluralRule`) is called as `t('base', { count })`;
 *   the form is chosen by `Intl.PluralRules` for the locale, falling back to `#other`.
 */

export type PluralCategory = Intl.LDMLPluralRule;

export type Catalog = Readonly<Record<string, string>>;

/** English is the source of truth; French must have exactly its keys. */
export interface Catalogs<C extends Catalog> {
  readonly en: C;
  readonly fr: { readonly [K in keyof C]: string };
}

type Placeholders<S> = S extends `${string}{${infer Name}}${infer Rest}` ? Name | Placeholders<Rest> : never;
type PluralBase<K> = K extends `${infer Base}#${PluralCategory}` ? Base : never;
type SimpleKey<K> = K extends `${string}#${string}` ? never : K;
type PluralForms<C, Base extends string> = {
  [F in keyof C & string]: F extends `${Base}#${PluralCategory}` ? C[F] : never;
}[keyof C & string];

export type MessageKey<C> = SimpleKey<keyof C & string> | PluralBase<keyof C & string>;
export type ParamValue = string | number;

/** Catalogs written without `as const` have no literal placeholders to check: any params go. */
type AnyParams = Readonly<Record<string, ParamValue>>;

export type MessageParams<C, K extends string> = K extends keyof C
  ? string extends C[K]
    ? AnyParams
    : { readonly [P in Placeholders<C[K]>]: ParamValue }
  : { readonly count: number } & { readonly [P in Exclude<Placeholders<PluralForms<C, K>>, 'count'>]: ParamValue };

/** Params are required exactly when the message has placeholders. */
export type ParamArgs<P> = [keyof P] extends [never] ? [params?: undefined] : string extends keyof P ? [params?: P] : [params: P];

export interface Translator<C extends Catalog> {
  readonly language: Language;
  /** BCP 47 locale for `Intl` formatting (dates, numbers). */
  readonly locale: string;
  t: <K extends MessageKey<C>>(key: K, ...params: ParamArgs<MessageParams<C, K>>) => string;
}

const pluralRulesCache = new Map<string, Intl.PluralRules>();
const numberFormatCache = new Map<string, Intl.NumberFormat>();

function pluralRules(locale: string): Intl.PluralRules {
  let rules = pluralRulesCache.get(locale);
  if (!rules) pluralRulesCache.set(locale, (rules = new Intl.PluralRules(locale)));
  return rules;
}

function formatNumber(value: number, locale: string): string {
  let format = numberFormatCache.get(locale);
  if (!format) numberFormatCache.set(locale, (format = new Intl.NumberFormat(locale)));
  return format.format(value);
}

export function interpolate(template: string, params: Readonly<Record<string, ParamValue>> | undefined, locale: string): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (placeholder, name: string) => {
    if (!Object.hasOwn(params, name)) return placeholder;
    const value = params[name];
    return typeof value === 'number' ? formatNumber(value, locale) : String(value);
  });
}

function readCount(params: Readonly<Record<string, ParamValue>> | undefined): number | undefined {
  const count = params?.count;
  return typeof count === 'number' ? count : undefined;
}

/** Finds the template: the language's own, else English, else the key itself (never throws). */
function lookup(catalogs: Catalogs<Catalog>, language: Language, key: string): string | undefined {
  return catalogs[language][key] ?? catalogs.en[key];
}

type ParamRecord = Readonly<Record<string, ParamValue>>;

function isParamRecord(value: unknown): value is ParamRecord {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.values(value).every((entry) => typeof entry === 'string' || typeof entry === 'number')
  );
}

export function createTranslator<C extends Catalog>(
  catalogs: Catalogs<C>,
  language: Language,
  locale: string = localeFor(language, undefined),
): Translator<C> {
  const all: Catalogs<Catalog> = catalogs;
  function translateKey(key: string, params: ParamRecord | undefined): string {
    const count = readCount(params);
    let template = lookup(all, language, key);
    if (template === undefined) {
      const category = count === undefined ? 'other' : pluralRules(locale).select(count);
      template = lookup(all, language, `${key}#${category}`) ?? lookup(all, language, `${key}#other`);
    }
    return interpolate(template ?? key, params, locale);
  }
  return {
    language,
    locale,
    t(key, ...args) {
      const params: unknown = args[0];
      return translateKey(key, isParamRecord(params) ? params : undefined);
    },
  };
}
