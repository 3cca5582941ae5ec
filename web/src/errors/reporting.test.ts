// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { announceNotFound } from './notFound';
import {
  beforeBreadcrumb,
  beforeSend,
  beforeSendTransaction,
  MAX_BREADCRUMBS,
  reportingOptions,
  scrubUrl,
  startErrorReporting,
  TRACES_SAMPLE_RATE,
} from './reporting';

const init = vi.hoisted(() => vi.fn());
const updateSpanName = vi.hoisted(() => vi.fn());
vi.mock('@sentry/browser', () => ({
  init,
  updateSpanName,
  browserTracingIntegration: () => ({ name: 'BrowserTracing' }),
  getActiveSpan: () => ({ name: 'child' }),
  getRootSpan: () => ({ name: 'pageload' }),
}));

describe('browser error reporting', () => {
  it('stays off without a DSN', () => {
    expect(reportingOptions('', 'production')).toBeNull();
    expect(startErrorReporting({ sentryDsn: '', sentryEnvironment: 'production' })).toBe(false);
    expect(init).not.toHaveBeenCalled();
  });

  it('starts with the same sampling and breadcrumb buffer as the server', () => {
    expect(startErrorReporting({ sentryDsn: 'https://k@o1.ingest.example/1', sentryEnvironment: 'production' })).toBe(true);
    const options = init.mock.calls[0]?.[0];
    expect(options).toMatchObject({
      dsn: 'https://k@o1.ingest.example/1',
      environment: 'production',
      tracesSampleRate: 0.1,
      maxBreadcrumbs: 30,
    });
    expect([TRACES_SAMPLE_RATE, MAX_BREADCRUMBS]).toEqual([0.1, 30]);
  });

  it('names the trace of the not-found page 404, so that it is dropped', () => {
    startErrorReporting({ sentryDsn: 'https://k@o1.ingest.example/1', sentryEnvironment: 'test' });
    announceNotFound();
    expect(updateSpanName).toHaveBeenCalledWith({ name: 'pageload' }, '404');
  });

  it('drops transactions named 404 and keeps the others', () => {
    expect(beforeSendTransaction({ type: 'transaction', transaction: '404' })).toBeNull();
    expect(beforeSendTransaction({ type: 'transaction', transaction: '/:lang/purchase' })).not.toBeNull();
  });

  it('reports a server error (HTTP 500) as a warning, other errors at their own level', () => {
    const serverError = new ApiError(-1002, 500, undefined, 'response');
    expect(beforeSend({ type: undefined, level: 'error' }, { originalException: serverError }).level).toBe('warning');
    const notFound = new ApiError(-404, 404, undefined, 'response');
    expect(beforeSend({ type: undefined, level: 'error' }, { originalException: notFound }).level).toBe('error');
    expect(beforeSend({ type: undefined, level: 'error' }, { originalException: new TypeError('x') }).level).toBe('error');
  });

  it('scrubs tokens, passwords and card fields at any depth, and token queries in addresses', () => {
    const event = beforeSend(
      {
        type: undefined,
        request: { url: 'https://shop.example/ko/password/reset?t=secret-token&x=1' },
        extra: {
          form: { cardNumber: '4111111111111111', expiryMonth: '12', birth: '900101', password: '12', email: 'a@b.c' },
          auth: { accessToken: 'eyJ...', zendeskJWT: 'eyJ...' },
        },
      },
      {},
    );
    expect(event.request?.url).toBe('https://shop.example/ko/password/reset?t=%5BFiltered%5D&x=1');
    expect(event.extra).toEqual({
      form: { cardNumber: '[Filtered]', expiryMonth: '[Filtered]', birth: '[Filtered]', password: '[Filtered]', email: 'a@b.c' },
      auth: { accessToken: '[Filtered]', zendeskJWT: '[Filtered]' },
    });
  });

  it('keeps tokens out of breadcrumbs of fetches and navigations', () => {
    const crumb = beforeBreadcrumb({
      category: 'fetch',
      data: { url: '/web/unicornpro/v1/accounts/password-change-check?t=abc', method: 'GET' },
    });
    expect(crumb.data).toEqual({ url: '/web/unicornpro/v1/accounts/password-change-check?t=%5BFiltered%5D', method: 'GET' });
    expect(scrubUrl('/ko/sso/zendesk?zendesk_url=https%3A%2F%2Fdesk')).toBe('/ko/sso/zendesk?zendesk_url=https%3A%2F%2Fdesk');
  });
});
