import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// findBy*/waitFor give up after 1 s by default; whole-app tests on a 2-core machine shared
// with builds need longer (a real failure still fails, later).
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
});

// Unit tests have no server to hold a live-updates socket open (jsdom would try to
// connect for real and retry): the shell runs without live updates here, as it does in
// a browser without WebSocket. The browser e2e proves live updates end to end.
Reflect.deleteProperty(globalThis, 'WebSocket');
