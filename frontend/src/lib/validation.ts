/** Loose e-mail syntax check for forms; the server has the final word (422 for `.local` and the like). */
export function emailProblem(email: string): string | null {
  const v = email.trim();
  if (!v) return 'Enter your email address.';
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v)) return 'Enter a valid email address, like name@company.com.';
  const tld = v.split('.').pop()?.toLowerCase();
  if (tld && ['local', 'localhost', 'invalid', 'onion', 'arpa'].includes(tld)) {
    return `Addresses ending in .${tld} are reserved and can’t receive mail. Use a real address.`;
  }
  return null;
}
