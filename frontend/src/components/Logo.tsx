export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" className="logo-mark">
      <rect width="32" height="32" rx="8" fill="var(--brand-600)" />
      <path d="M8 21.5 16 25l8-3.5" fill="none" stroke="#fff" strokeOpacity=".55" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M8 16.5 16 20l8-3.5" fill="none" stroke="#fff" strokeOpacity=".8" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M16 7 8 11l8 4 8-4-8-4Z" fill="#fff" />
    </svg>
  );
}

export function Logo({ compact = false }: { compact?: boolean }) {
  return (
    <span className="logo">
      <LogoMark />
      {!compact && <span className="logo__word">Strata</span>}
    </span>
  );
}
