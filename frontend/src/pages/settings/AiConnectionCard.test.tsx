import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../App';
import { AiConnectionCard } from './AiConnectionCard';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function stubServer(test: () => Response) {
  const posts: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/v1/settings/ai') {
        return json(200, { enabled: false, provider: 'ollama', model: 'llama3', ollama_url: 'http://localhost:11434' });
      }
      if (url.pathname === '/api/v1/settings/ai/test' && init.method === 'POST') {
        posts.push(url.pathname);
        return test();
      }
      return json(404, { detail: 'Not Found' });
    }),
  );
  return posts;
}

function renderCard() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <AiConnectionCard />
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('AI settings: Test connection', () => {
  it('shows the provider and a successful test', async () => {
    const posts = stubServer(() =>
      json(200, { success: true, message: 'Connected to Ollama at localhost (HTTP 200, 12 ms)', provider: 'ollama', latency_ms: 12 }),
    );
    renderCard();
    expect(await screen.findByText('http://localhost:11434', { exact: false })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Connected')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Connected to Ollama at localhost');
    expect(posts).toEqual(['/api/v1/settings/ai/test']);
  });

  it('shows a failed connection as a result and a missing configuration as an error', async () => {
    let answer = json(200, { success: false, message: 'Could not reach Ollama: could not connect to localhost:11434', provider: 'ollama', latency_ms: null });
    stubServer(() => answer);
    renderCard();
    await userEvent.click(await screen.findByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Failed')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('could not connect');

    answer = json(400, { detail: 'Choose an AI provider before testing the connection' });
    await userEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Choose an AI provider before testing the connection')).toBeInTheDocument();
  });
});
