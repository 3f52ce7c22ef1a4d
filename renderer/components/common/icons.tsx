/** Small inline icons (no icon font, nothing fetched: the CSP allows this origin only). */
import type { ReactNode } from 'react';
import type { ReaperState } from '../../../shared/domain.ts';

interface IconProps {
  size?: number;
  className?: string;
}

/** A 16 x 16 stroked icon, hidden from assistive technologies (the words next to it say it all). */
function Svg({
  size,
  className,
  children,
}: {
  size: number;
  className?: string | undefined;
  children: ReactNode;
}) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.6}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={className}
    >
      {children}
    </svg>
  );
}

export function StateIcon({ state, size = 14, className }: IconProps & { state: ReaperState }) {
  const p = { size, className };
  switch (state) {
    case 'WaitingForInit':
      return (
        <Svg {...p}>
          <circle cx="8" cy="8" r="5.5" strokeDasharray="2.4 2.2" />
        </Svg>
      );
    case 'Up':
      return (
        <Svg {...p}>
          <circle cx="8" cy="8" r="5.5" />
          <path d="M5.5 8.2l1.7 1.7 3.3-3.6" />
        </Svg>
      );
    case 'WaitingForShutdown':
      return (
        <Svg {...p}>
          <path d="M10.5 3.2A5.5 5.5 0 1 0 12.8 10" />
          <path d="M8 5v3.2l2 1.3" />
        </Svg>
      );
    case 'Down':
      return (
        <Svg {...p}>
          <path d="M13 9.6A5.6 5.6 0 1 1 6.4 3a4.4 4.4 0 0 0 6.6 6.6z" />
        </Svg>
      );
    case 'WaitingForUp':
      return (
        <Svg {...p}>
          <path d="M8 13V4" />
          <path d="M4.5 7.5L8 4l3.5 3.5" />
          <path d="M3 13h10" />
        </Svg>
      );
    case 'Error':
      return (
        <Svg {...p}>
          <path d="M8 2.2l6.2 11H1.8z" />
          <path d="M8 6.5v3" />
          <path d="M8 11.4v.1" />
        </Svg>
      );
  }
}

export function Logo({ size = 22 }: IconProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="11" fill="var(--brand)" />
      <path
        d="M16.5 14.8A5.6 5.6 0 1 1 9.2 7.5a4.3 4.3 0 0 0 7.3 7.3z"
        fill="none"
        stroke="var(--brand-ink)"
        strokeWidth="1.8"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function CloseIcon({ size = 16 }: IconProps) {
  return (
    <Svg size={size}>
      <path d="M4 4l8 8M12 4l-8 8" />
    </Svg>
  );
}

export function SearchIcon({ size = 14 }: IconProps) {
  return (
    <Svg size={size}>
      <circle cx="7" cy="7" r="4.5" />
      <path d="M10.5 10.5L14 14" />
    </Svg>
  );
}
