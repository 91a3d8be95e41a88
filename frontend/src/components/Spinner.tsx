export function Spinner({ size = 16, label }: { size?: number; label?: string }) {
  return (
    <span
      className="spinner"
      style={{ width: size, height: size }}
      role={label ? 'status' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    />
  );
}

export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="page-spinner">
      <Spinner size={28} label={label} />
    </div>
  );
}
