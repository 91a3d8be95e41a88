import { describe, expect, it } from 'vitest';
import { ApiError, errorMessage, parseErrorBody } from './errors';

describe('parseErrorBody', () => {
  it('reads a {detail: string} body (HTTPException)', () => {
    const err = parseErrorBody(401, { detail: 'Incorrect email or password' });
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(401);
    expect(err.message).toBe('Incorrect email or password');
    expect(err.fieldErrors).toEqual({});
  });

  it('reads the 422 validation shape into field errors (CONTRACT 8)', () => {
    const err = parseErrorBody(422, {
      error: 'VALIDATION_ERROR',
      message: 'Request validation failed',
      details: {
        errors: [
          { field: 'email', message: 'value is not a valid email address: special-use name', type: 'value_error' },
          { field: 'lines.0.quantity', message: 'Input should be greater than 0', type: 'greater_than' },
          { field: 'password', message: 'Value error, Password must contain at least one number', type: 'value_error' },
        ],
      },
      timestamp: '2026-01-20T12:00:00.123456+00:00Z',
    });
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.message).toBe('Request validation failed');
    expect(err.fieldErrors).toEqual({
      email: 'value is not a valid email address: special-use name',
      'lines.0.quantity': 'Input should be greater than 0',
      password: 'Password must contain at least one number',
    });
  });

  it('names the field when exactly one is wrong', () => {
    const err = parseErrorBody(422, {
      error: 'VALIDATION_ERROR',
      message: 'Request validation failed',
      details: { errors: [{ field: 'full_name', message: 'Field required', type: 'missing' }] },
    });
    expect(err.message).toBe('Full name: Field required');
    expect(err.fieldErrors).toEqual({ full_name: 'Field required' });
  });

  it('reads FastAPI default {detail:[{loc,msg}]} too, dropping the body prefix', () => {
    const err = parseErrorBody(422, { detail: [{ loc: ['body', 'username'], msg: 'Field required', type: 'missing' }] });
    expect(err.fieldErrors).toEqual({ username: 'Field required' });
    expect(err.message).toBe('Some fields need attention.');
  });

  it('keeps a field named `body` (a message text) as it is', () => {
    const err = parseErrorBody(422, { detail: 'Request validation failed', details: { errors: [{ field: 'body', message: 'Too long', type: 'value_error' }] } });
    expect(err.fieldErrors).toEqual({ body: 'Too long' });
    expect(err.message).toBe('Body: Too long');
  });

  it('reads {error, message} bodies and the rate-limit body', () => {
    expect(parseErrorBody(500, { error: 'INTERNAL_ERROR', message: 'An unexpected error occurred. Please try again later.' }).message).toBe(
      'An unexpected error occurred. Please try again later.',
    );
    const limited = parseErrorBody(429, { error: 'Rate limit exceeded: 3 per 1 minute' });
    expect(limited.message).toBe('Rate limit exceeded: 3 per 1 minute');
  });

  it('reads a dict detail with a message (tier limits)', () => {
    const err = parseErrorBody(403, { detail: { code: 'TIER_LIMIT_EXCEEDED', message: 'Limit reached' } });
    expect(err.message).toBe('Limit reached');
    expect(err.code).toBe('TIER_LIMIT_EXCEEDED');
  });

  it('falls back to a sentence for the status when the body says nothing useful', () => {
    const html = parseErrorBody(502, '<html><body><h1>502 Bad Gateway</h1></body></html>');
    expect(html.message).toMatch(/not responding/);
    expect(html.isUnreachable).toBe(true);
    expect(parseErrorBody(404, undefined).isNotFound).toBe(true);
    expect(parseErrorBody(418, {}).message).toBe('Request failed (418).');
    expect(parseErrorBody(400, 'Plain text reason').message).toBe('Plain text reason');
  });

  it('errorMessage works on anything thrown', () => {
    expect(errorMessage(new ApiError(400, 'Bad'))).toBe('Bad');
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage('x')).toBe('Something went wrong.');
  });
});
