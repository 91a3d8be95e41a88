import { afterEach, describe, expect, it, vi } from 'vitest';
import { invalidationBatcher, LIVE_STREAMS, liveUrl } from './live';
import { queryKeys } from './queryKeys';

describe('liveUrl', () => {
  it('is next to the page when the API is on the same origin', () => {
    expect(liveUrl('', { protocol: 'http:', host: 'farm.local:8000' })).toBe('ws://farm.local:8000/graphql/ws');
    expect(liveUrl('', { protocol: 'https:', host: 'erp.example.com' })).toBe('wss://erp.example.com/graphql/ws');
  });

  it('follows VITE_API_URL to another origin', () => {
    expect(liveUrl('https://api.example.com', { protocol: 'http:', host: 'x' })).toBe('wss://api.example.com/graphql/ws');
  });
});

describe('invalidationBatcher', () => {
  afterEach(() => vi.useRealTimers());

  it('refetches each key once per burst of events', () => {
    vi.useFakeTimers();
    const invalidateQueries = vi.fn(() => Promise.resolve());
    const batch = invalidationBatcher({ invalidateQueries }, 250);
    batch.add(LIVE_STREAMS[0].keys);
    batch.add(LIVE_STREAMS[1].keys);
    batch.add(LIVE_STREAMS[0].keys);
    expect(invalidateQueries).not.toHaveBeenCalled();
    vi.advanceTimersByTime(250);
    const keys = invalidateQueries.mock.calls.map((call) => (call as unknown as [{ queryKey: string[] }])[0].queryKey[0]);
    expect(keys.sort()).toEqual(['command-center', 'printers', 'production']);
    batch.add([queryKeys.printers.all]);
    vi.advanceTimersByTime(250);
    expect(invalidateQueries).toHaveBeenCalledTimes(4);
  });

  it('forgets what is pending when stopped', () => {
    vi.useFakeTimers();
    const invalidateQueries = vi.fn(() => Promise.resolve());
    const batch = invalidationBatcher({ invalidateQueries }, 250);
    batch.add([queryKeys.printers.all]);
    batch.stop();
    vi.advanceTimersByTime(1000);
    expect(invalidateQueries).not.toHaveBeenCalled();
  });
});
