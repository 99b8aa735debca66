import type { ReactNode } from 'react';

/** A designed state of a list (empty, not scannable, error…), shared by every feature that lists things. */

type Tone = 'neutral' | 'warning' | 'error';

const TONE_CLASS: Readonly<Record<Tone, string>> = {
  neutral: 'border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900',
  warning: 'border-amber-200 bg-amber-50 dark:border-amber-900 dark:bg-amber-950/60',
  error: 'border-red-200 bg-red-50 dark:border-red-900 dark:bg-red-950/60',
};

function StateIcon({ tone }: { tone: Tone }) {
  const color =
    tone === 'error'
      ? 'text-red-700 dark:text-red-300'
      : tone === 'warning'
        ? 'text-amber-700 dark:text-amber-300'
        : 'text-slate-500 dark:text-slate-400';
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={`h-6 w-6 shrink-0 ${color}`}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
    >
      {tone === 'neutral' ? (
        <>
          <circle cx="11" cy="11" r="6.5" />
          <path d="M16 16l4.5 4.5" strokeLinecap="round" />
        </>
      ) : (
        <>
          <path d="M12 3.5 21.5 20h-19L12 3.5Z" strokeLinejoin="round" />
          <path d="M12 10v4.5M12 17.2v.1" strokeLinecap="round" />
        </>
      )}
    </svg>
  );
}

/** A designed state (empty, not scannable, error…): icon, title, explanation, and what to do next. */
export function StatePanel({
  tone = 'neutral',
  title,
  detail,
  children,
  testId,
}: {
  tone?: Tone;
  title: string;
  detail: ReactNode;
  children?: ReactNode;
  testId?: string;
}) {
  return (
    <div
      data-testid={testId}
      role={tone === 'error' ? 'alert' : undefined}
      className={`flex gap-3 rounded-xl border p-4 ${TONE_CLASS[tone]}`}
    >
      <StateIcon tone={tone} />
      <div className="flex min-w-0 flex-col gap-1">
        <h2 className="text-sm font-semibold text-slate-900 dark:text-white">{title}</h2>
        <div className="text-xs text-slate-700 dark:text-slate-300">{detail}</div>
        {children && <div className="mt-2 flex flex-wrap items-center gap-2">{children}</div>}
      </div>
    </div>
  );
}
