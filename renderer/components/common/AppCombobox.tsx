/**
 * A searchable app picker: the ARIA 1.2 combobox pattern with a list popup (an editable input,
 * `aria-autocomplete="list"`, the options filtered as one types, the active option told with
 * `aria-activedescendant`). Arrows move in the list, Enter picks, Escape closes (a second Escape
 * clears), Alt+Down opens. Made for a thousand apps: at most MAX_SHOWN options are rendered, the
 * typed text narrows them. The first option is "all apps" (the empty value).
 */
import { type KeyboardEvent, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface ComboOption {
  id: string;
  name: string;
}

const MAX_SHOWN = 50;

export function AppCombobox(props: {
  id: string;
  options: ComboOption[];
  /** The app id picked, or '' for all. */
  value: string;
  onChange(value: string): void;
  /** The text of the empty value. */
  allLabel: string;
  /** The name of a picked app that is not among the options (a released app). */
  valueName?: string;
}) {
  const { t } = useTranslation('apps');
  const { id, options, value, onChange, allLabel } = props;
  const listId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const nameOf = (v: string) => (v ? (options.find((o) => o.id === v)?.name ?? props.valueName ?? v) : '');
  const [text, setText] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const shownText = text ?? nameOf(value);

  const matches = useMemo(() => {
    const q = (text ?? '').trim().toLowerCase();
    const all = q ? options.filter((o) => o.name.toLowerCase().includes(q) || o.id.includes(q)) : options;
    // Names that start with the text first (type-ahead), then those that contain it.
    const ranked = q
      ? [...all].sort(
          (a, b) => Number(!a.name.toLowerCase().startsWith(q)) - Number(!b.name.toLowerCase().startsWith(q)),
        )
      : all;
    return { shown: ranked.slice(0, MAX_SHOWN), total: ranked.length };
  }, [options, text]);
  const list: ComboOption[] = [{ id: '', name: allLabel }, ...matches.shown];
  const activeIndex = Math.min(active, list.length - 1);

  const choose = (option: ComboOption) => {
    onChange(option.id);
    setText(null);
    setOpen(false);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        if (!open) {
          setOpen(true);
          setActive(e.altKey ? activeIndex : Math.min(1, list.length - 1));
        } else setActive(Math.min(list.length - 1, activeIndex + 1));
        return;
      case 'ArrowUp':
        e.preventDefault();
        if (open) setActive(Math.max(0, activeIndex - 1));
        return;
      case 'Home':
      case 'End':
        if (!open) return;
        e.preventDefault();
        setActive(e.key === 'Home' ? 0 : list.length - 1);
        return;
      case 'Enter':
        if (open) {
          e.preventDefault();
          choose(list[activeIndex]!);
        }
        return;
      case 'Escape':
        if (open) {
          e.preventDefault();
          setOpen(false);
          setText(null);
        } else if (value || text) {
          e.preventDefault();
          onChange('');
          setText(null);
        }
        return;
      default:
    }
  };

  return (
    <div className="combobox">
      <input
        ref={inputRef}
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open ? `${listId}-${activeIndex}` : undefined}
        placeholder={allLabel}
        value={shownText}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(e.target.value ? 1 : 0);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => {
          setOpen(false);
          setText(null);
        }}
        onClick={() => setOpen(true)}
      />
      <div
        id={listId}
        role="listbox"
        aria-label={t('combobox.label')}
        className="combobox-list"
        hidden={!open}
      >
        {open &&
          list.map((o, i) => (
            <div
              key={o.id || '-all'}
              id={`${listId}-${i}`}
              role="option"
              // The focus stays in the input (aria-activedescendant); the option is clicked.
              tabIndex={-1}
              aria-selected={i === activeIndex}
              className={`${i === activeIndex ? 'active' : ''} ${o.id === value ? 'current' : ''}`}
              // Picked on mouse down, before the input's blur closes the list.
              onMouseDown={(e) => {
                e.preventDefault();
                choose(o);
              }}
            >
              {o.name}
            </div>
          ))}
      </div>
      {open && (matches.total > matches.shown.length || matches.total === 0) && (
        <div className="muted combobox-more">
          {matches.total === 0
            ? t('combobox.noMatch')
            : t('combobox.more', { count: matches.total - matches.shown.length })}
        </div>
      )}
    </div>
  );
}
