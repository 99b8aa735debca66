import { DISPLAY_NAME_MAX, displayText } from '@/lib/core/display-text';

/**
 * A founder's or a service's name as a row shows it: cleaned of bidi and control characters, cut to
 * a readable length, and whole (cleaned) in the tooltip when it was cut. Spread on the element.
 */
export function rowNameProps(name: string): { children: string; title?: string } {
  const shown = displayText(name, { max: DISPLAY_NAME_MAX });
  const whole = displayText(name);
  return shown === whole ? { children: shown } : { children: shown, title: whole };
}
