import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { focusRing } from './styles';

export interface ViewTab<V extends string> {
  id: V;
  label: ReactNode;
  testId?: string;
}

/**
 * WAI-ARIA tabs for the popup's and the side panel's views: one tab stop, arrow keys move between
 * tabs, Home/End to the ends. The panels are `id="panel-{id}"`, labelled by `id="tab-{id}"`.
 */
export function ViewTabs<V extends string>({
  tabs,
  current,
  onChange,
  label,
}: {
  tabs: readonly ViewTab<V>[];
  current: V;
  onChange: (view: V) => void;
  label: string;
}) {
  const refs = useRef<Partial<Record<V, HTMLButtonElement | null>>>({});

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    const index = tabs.findIndex((tab) => tab.id === current);
    const target =
      event.key === 'ArrowRight'
        ? tabs[(index + 1) % tabs.length]
        : event.key === 'ArrowLeft'
          ? tabs[(index - 1 + tabs.length) % tabs.length]
          : event.key === 'Home'
            ? tabs[0]
            : event.key === 'End'
              ? tabs[tabs.length - 1]
              : undefined;
    if (!target) return;
    event.preventDefault();
    onChange(target.id);
    refs.current[target.id]?.focus();
  }

  return (
    <div role="tablist" aria-label={label} className="flex gap-1 border-b border-slate-200 px-3 dark:border-slate-800">
      {tabs.map((tab) => (
        <button
          key={tab.id}
          ref={(element) => {
            refs.current[tab.id] = element;
          }}
          type="button"
          role="tab"
          id={`tab-${tab.id}`}
          data-testid={tab.testId}
          aria-selected={current === tab.id}
          aria-controls={`panel-${tab.id}`}
          tabIndex={current === tab.id ? 0 : -1}
          onClick={() => onChange(tab.id)}
          onKeyDown={onKeyDown}
          className={`-mb-px border-b-2 px-2.5 py-2 text-sm font-medium whitespace-nowrap ${focusRing} ${
            current === tab.id
              ? 'border-accent text-accent'
              : 'border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white'
          }`}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
