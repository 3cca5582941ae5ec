import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../app/routes';
import { en } from '../../i18n/en';
import { appStore } from '../../store';
import { renderAtAddress } from '../../test/renderAtAddress';
import type { FilterGroup } from './api';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
const serverGroups: FilterGroup[] = [
  {
    groupId: 1,
    name: 'Main filters',
    localizations: [{ languageCode: 'en', name: 'Main filters from the server' }],
    filters: [{ filterId: 301, name: 'Korean filter', localizations: [] }],
  },
];

function respond(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

let calls: { url: string; body: unknown }[] = [];

beforeEach(() => {
  calls = [];
  appStore.setState({ user: null, account: null, sessionChecked: true, operations: {} });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      calls.push({ url, body: init?.body });
      if (url.includes('/reports/filter-groups')) return respond(serverGroups);
      if (url.includes('/reports/validate')) return respond({ contentType: 'image/png', width: 1, height: 1, frames: 1 });
      if (url.endsWith('/reports')) return respond({ reportId: 'r-1', images: 1 });
      return new Promise<Response>(() => undefined);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

async function openForm() {
  renderAtAddress(<AppRoutes />, '/en/report');
  return screen.findByRole('heading', { level: 1, name: en.report.heading });
}

function choose(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe('the report page', () => {
  it("shows a basic app's local filters, and a Pro app's from the server", async () => {
    await openForm();
    choose(en.report.product, 'uncea');
    expect(await screen.findByRole('checkbox', { name: 'Korean social reply filter' })).toBeTruthy();
    expect(calls.some((call) => call.url.includes('filter-groups'))).toBe(false);

    choose(en.report.product, 'uncpm');
    expect(await screen.findByRole('group', { name: 'Main filters from the server' })).toBeTruthy();
    expect(calls.find((call) => call.url.includes('filter-groups'))?.url).toContain('product=uncpm');
  });

  it('checks images before adding them, previews and removes them, and sends the report', async () => {
    await openForm();
    const picker = screen.getByLabelText(en.report.addImages);
    await act(async () => {
      fireEvent.change(picker, { target: { files: [new File(['echo hi'], 'fake.png', { type: 'image/png' })] } });
    });
    expect(await screen.findByText(en.report.errorCodes['-1401'])).toBeTruthy();
    expect(calls.some((call) => call.url.includes('/reports/validate'))).toBe(false);

    await act(async () => {
      fireEvent.change(picker, { target: { files: [new File([PNG], 'shot.png', { type: 'image/png' })] } });
    });
    expect(await screen.findByRole('img', { name: 'Attached image: shot.png' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove shot.png' }));
    expect(screen.queryByRole('img', { name: 'Attached image: shot.png' })).toBeNull();
    await act(async () => {
      fireEvent.change(picker, { target: { files: [new File([PNG], 'again.png', { type: 'image/png' })] } });
    });
    await screen.findByRole('img', { name: 'Attached image: again.png' });

    fireEvent.click(screen.getByRole('button', { name: en.report.submit }));
    expect(await screen.findByText(en.report.validation.checked)).toBeTruthy();

    choose(en.report.product, 'uncea');
    fireEvent.change(screen.getByLabelText(en.report.url), { target: { value: 'news.example/1' } });
    fireEvent.click(screen.getByLabelText(en.report.checked));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: en.report.submit }));
    });
    const sent = await screen.findByRole('region', { name: en.report.sentHeading });
    expect(within(sent).getByText(en.report.sentBody)).toBeTruthy();
    const body = calls.find((call) => call.url.endsWith('/reports'))?.body as FormData;
    expect([body.get('product'), body.get('url'), body.get('os'), body.has('filters')]).toEqual([
      'uncea',
      'https://news.example/1',
      'android',
      false,
    ]);
    expect((body.get('images') as File).name).toBe('again.png');
  });
});
