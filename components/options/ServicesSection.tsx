import { useId, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { hostPermissionPattern } from '@/lib/extension/permissions';
import { DEFAULT_SERVICES, type ServiceConfig } from '@/lib/core/services';
import type { ConfiguredService, EffectiveSettings, UserSettings } from '@/lib/core/schemas/settings';
import { useI18n } from '../i18n';
import { useOptionsApi } from './context';
import { optionsKeys, optionsQueries, useUpdateSettings } from './queries';
import { ServiceForm } from './ServiceForm';
import { errorReason, LockedNote, NoticeLine, Section, type Notice } from './ui';
import { hintClass } from '../styles';
import { dangerButtonClass, primaryButtonClass, secondaryButtonClass } from '../styles';
import { draftFromService, EMPTY_SERVICE_DRAFT, newServiceId } from './validation';
import { askWithinGesture } from '../gesture';

export function ServicesSection({ effective, user }: { effective: EffectiveSettings; user: UserSettings }) {
  const { t } = useI18n();
  const api = useOptionsApi();
  const updateSettings = useUpdateSettings();
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState<{ id: string } | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const addButtonRef = useRef<HTMLButtonElement>(null);
  const lockedNoteId = useId();
  const listLocked = effective.locked.services;

  async function saveServices(services: ServiceConfig[]) {
    await updateSettings.mutateAsync({ services });
  }

  async function add(service: ServiceConfig) {
    await saveServices([...user.services, service]);
    setAdding(null);
    setNotice({ tone: 'success', text: t('services.added', { name: service.name }) });
    requestAnimationFrame(() => addButtonRef.current?.focus());
  }

  async function edit(service: ServiceConfig) {
    const previous = user.services.find((entry) => entry.id === service.id);
    await saveServices(user.services.map((entry) => (entry.id === service.id ? service : entry)));
    setEditing(null);
    setNotice({ tone: 'success', text: t('services.updated', { name: service.name }) });
    if (previous && previous.origin !== service.origin) await releaseAccess(previous.origin, service.id);
  }

  async function remove(service: ConfiguredService) {
    try {
      await saveServices(user.services.filter((entry) => entry.id !== service.id));
      setNotice({ tone: 'success', text: t('services.removed', { name: service.name }) });
      requestAnimationFrame(() => addButtonRef.current?.focus());
      await releaseAccess(service.origin, service.id);
    } catch (error) {
      setNotice({ tone: 'error', text: t('options.saveError', { reason: errorReason(error) }) });
    }
  }

  /** Gives access back once no remaining service needs it. */
  async function releaseAccess(origin: string, removedId: string) {
    const pattern = hostPermissionPattern(origin);
    const stillUsed = effective.services.some(
      (entry) => entry.id !== removedId && hostPermissionPattern(entry.origin) === pattern,
    );
    if (!stillUsed) await api.removeHostAccess([pattern]);
  }

  // A new install (nothing but what it shipped with): say plainly what to add, and how (issue #33 item 13).
  const onlyShipped = effective.services.every(isShipped);
  return (
    <Section title={t('services.heading')} description={t('services.description')}>
      {listLocked && <LockedNote id={lockedNoteId} />}
      {onlyShipped && !listLocked && (
        <div
          data-testid="services-start"
          className="rounded-lg bg-slate-50 px-3 py-2.5 text-sm text-slate-800 ring-1 ring-slate-200 ring-inset dark:bg-slate-900 dark:text-slate-200 dark:ring-slate-800"
        >
          <p className="font-medium text-slate-900 dark:text-white">{t('services.start.title')}</p>
          <p className="mt-1">{t('services.start.detail')}</p>
        </div>
      )}
      <NoticeLine notice={notice} />
      {effective.services.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 px-4 py-6 text-center dark:border-slate-700">
          <p className="text-sm font-medium text-slate-900 dark:text-white">{t('services.empty.title')}</p>
          <p className={`mt-1 ${hintClass}`}>{t('services.empty.detail')}</p>
        </div>
      ) : (
        <ul className="flex flex-col divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
          {effective.services.map((service) =>
            editing === service.id ? (
              <li key={service.id} className="p-3">
                <ServiceForm
                  mode="edit"
                  serviceId={service.id}
                  initial={draftFromService(service)}
                  services={effective.services}
                  onSave={edit}
                  onCancel={() => setEditing(null)}
                />
              </li>
            ) : (
              <ServiceRow
                key={service.id}
                service={service}
                editable={!listLocked && !service.locked}
                onEdit={() => {
                  setNotice(null);
                  setAdding(null);
                  setEditing(service.id);
                }}
                onRemove={() => void remove(service)}
              />
            ),
          )}
        </ul>
      )}
      {adding ? (
        <ServiceForm
          mode="add"
          serviceId={adding.id}
          initial={EMPTY_SERVICE_DRAFT}
          services={effective.services}
          onSave={add}
          onCancel={() => {
            setAdding(null);
            requestAnimationFrame(() => addButtonRef.current?.focus());
          }}
        />
      ) : (
        <div>
          <button
            ref={addButtonRef}
            type="button"
            className={primaryButtonClass}
            disabled={listLocked}
            aria-describedby={listLocked ? lockedNoteId : undefined}
            onClick={() => {
              setNotice(null);
              setEditing(null);
              setAdding({ id: newServiceId() });
            }}
          >
            <span aria-hidden="true">+</span> {t('services.add.open')}
          </button>
          {listLocked && <p className={`mt-1 ${hintClass}`}>{t('services.lockedList')}</p>}
        </div>
      )}
    </Section>
  );
}

function ServiceRow({
  service,
  editable,
  onEdit,
  onRemove,
}: {
  service: ConfiguredService;
  editable: boolean;
  onEdit: () => void;
  onRemove: () => void;
}) {
  const { t } = useI18n();
  const lockedId = useId();
  return (
    <li className="flex flex-col gap-2 p-3 sm:flex-row sm:items-start sm:justify-between" data-testid="service-row">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-medium text-slate-900 dark:text-white">{service.name}</span>
          {service.source === 'managed' && (
            <span className="rounded bg-slate-100 px-1.5 py-0.5 text-[11px] font-semibold text-slate-700 dark:bg-slate-800 dark:text-slate-300">
              {t('services.managed')}
            </span>
          )}
        </p>
        <p className="truncate font-mono text-xs text-slate-700 dark:text-slate-300">{service.origin}</p>
        <dl className={`mt-1 grid grid-cols-[auto_1fr] gap-x-2 ${hintClass}`}>
          <dt>{t('services.apiPath')}</dt>
          <dd className="font-mono break-all">{service.apiPathTemplate}</dd>
          <dt>{t('services.sharePaths')}</dt>
          <dd className="font-mono break-all">
            {service.sharePathTemplates.length > 0 ? service.sharePathTemplates.join(', ') : t('services.noSharePaths')}
          </dd>
        </dl>
        <AccessStatus service={service} shipped={isShipped(service)} />
        {!editable && service.locked && <LockedNote id={lockedId} />}
      </div>
      {editable && (
        <div className="flex shrink-0 gap-2">
          <button
            type="button"
            className={secondaryButtonClass}
            aria-label={t('services.editNamed', { name: service.name })}
            onClick={onEdit}
          >
            {t('services.edit')}
          </button>
          <button
            type="button"
            className={dangerButtonClass}
            aria-label={t('services.removeNamed', { name: service.name })}
            onClick={onRemove}
          >
            {t('services.remove')}
          </button>
        </div>
      )}
    </li>
  );
}

/** A service the extension was shipped with, as shipped: its missing access is no problem, nobody asked for it. */
function isShipped(service: ConfiguredService): boolean {
  return (
    service.source === 'user' &&
    DEFAULT_SERVICES.some((shipped) => shipped.id === service.id && shipped.origin === service.origin)
  );
}

/**
 * Whether the browser lets the extension contact this service, with a way to allow it: a warning for
 * a service the user added, a plain note for one the extension was shipped with.
 */
function AccessStatus({ service, shipped }: { service: ConfiguredService; shipped: boolean }) {
  const { t } = useI18n();
  const api = useOptionsApi();
  const queryClient = useQueryClient();
  const pattern = hostPermissionPattern(service.origin);
  const access = useQuery(optionsQueries.hostAccess(api, pattern));
  const [denied, setDenied] = useState<string | null>(null);

  function allow() {
    const request = askWithinGesture(() => api.requestHostAccess([pattern]));
    void request
      .then((granted) => {
        setDenied(granted ? null : t('services.access.denied', { origin: service.origin, name: service.name }));
      })
      .catch((error: unknown) => {
        setDenied(t('services.error.permissionFailed', { origin: service.origin, reason: errorReason(error) }));
      })
      .finally(() => queryClient.invalidateQueries({ queryKey: optionsKeys.hostAccessAll() }));
  }

  if (access.isPending) return <p className={`mt-1 ${hintClass}`}>{t('services.access.checking')}</p>;
  if (access.data) {
    return (
      <p className="mt-1 flex items-center gap-1 text-xs font-medium text-emerald-800 dark:text-emerald-300">
        <span aria-hidden="true">✓</span>
        {t('services.access.granted')}
      </p>
    );
  }
  return (
    <div className="mt-1 flex flex-col items-start gap-1">
      {shipped ? (
        <p className={hintClass}>{t('services.access.shipped')}</p>
      ) : (
        <p className="text-xs font-medium text-amber-800 dark:text-amber-300">{t('services.access.missing')}</p>
      )}
      <button
        type="button"
        className={secondaryButtonClass}
        aria-label={t('services.access.allowNamed', { name: service.name })}
        onClick={allow}
      >
        {t('services.access.allow')}
      </button>
      {denied && (
        <p role="alert" className="text-xs font-medium text-red-700 dark:text-red-300">
          {denied}
        </p>
      )}
    </div>
  );
}
