import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './clients';
import { e2eVarDir } from '../playwright.config';
import type { Catalogue } from '../src/i18n/catalogues';
import { ja } from '../src/i18n/ja';
import { ko } from '../src/i18n/ko';

/**
 * Reporting an ad with the real stack: a Pro app's filter groups come from the server, images are checked
 * before they are added (a script named .png is refused), previews can be removed, and the report lands in
 * the log with its images kept as files under the stack's var dir, cleaned of the photo's camera and position;
 * support's export (`python -m workers.operator reports export`) shows the filters chosen.
 */

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const python = path.join(repoRoot, '.venv', 'bin', 'python');
const stackEnv = { ...process.env, APP_VAR_DIR: e2eVarDir, APP_ENV: 'test' };

/** The test images, made by the Python tests' own builders (a phone photo with EXIF GPS, a png, a gif). */
function testImages(): Record<'photo' | 'shot' | 'dance', Buffer> & { camera: string } {
  const script = [
    'import base64, json',
    'from tests import images',
    'print(json.dumps({"photo": base64.b64encode(images.phone_photo()).decode(),',
    ' "shot": base64.b64encode(images.plain_png(48, 32)).decode(),',
    ' "dance": base64.b64encode(images.animated_gif()).decode(), "camera": images.CAMERA}))',
  ].join('\n');
  const made = JSON.parse(execFileSync(python, ['-c', script], { cwd: repoRoot, encoding: 'utf8' }));
  return {
    photo: Buffer.from(made.photo, 'base64'),
    shot: Buffer.from(made.shot, 'base64'),
    dance: Buffer.from(made.dance, 'base64'),
    camera: made.camera,
  };
}

/** The report as support's export shows it, once the projector has it. */
function exported(reportId: string): Record<string, unknown> | undefined {
  const out = path.join(e2eVarDir, `export-${reportId}.jsonl`);
  execFileSync(python, ['-m', 'workers.operator', 'reports', 'export', out, '--quiet'], { cwd: repoRoot, env: stackEnv });
  const rows = readFileSync(out, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
  return rows.find((row) => row.report_id === reportId);
}

const LANGUAGES: [string, Catalogue][] = [
  ['ko', ko],
  ['ja', ja],
];

for (const [lang, t] of LANGUAGES) {
  test(`a report of an ad with two images and two filters, in ${lang}`, async ({ page }, info) => {
    test.setTimeout(60_000);
    const images = testImages();
    const email = `e2e-report-${lang}-${info.project.name}-${Date.now()}@example.com`;
    await page.goto(`/${lang}/report`);
    await expect(page.getByRole('heading', { level: 1, name: t.report.heading })).toBeVisible();

    await page.getByRole('button', { name: t.report.submit }).click();
    await expect(page.getByText(t.report.validation.checked)).toBeVisible();
    await expect(page.getByText(t.report.validation.product)).toBeVisible();
    await expect(page.getByText(t.report.validation.urlRequired)).toBeVisible();

    await page.getByLabel(t.report.product).selectOption('uncpm');
    const filters = page.getByRole('group', { name: t.report.filters });
    const privacy = lang === 'ko' ? '개인정보 보호 필터' : 'プライバシーフィルター';
    const korean = lang === 'ko' ? '한국어 필터' : '韓国語フィルター';
    await filters.getByRole('checkbox', { name: privacy }).check();
    await filters.getByRole('checkbox', { name: korean }).check();
    await expect(page.getByRole('radio', { name: t.report.problems.ad })).toBeChecked();
    await page.getByLabel(t.report.url, { exact: true }).fill('news.example/article/1');
    await page.getByLabel(t.report.application).selectOption('safari');

    const picker = page.getByLabel(t.report.addImages, { exact: true });
    await picker.setInputFiles([
      { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: images.photo },
      { name: 'shot.png', mimeType: 'image/png', buffer: images.shot },
      { name: 'dance.gif', mimeType: 'image/gif', buffer: images.dance },
    ]);
    const preview = (name: string) => page.getByRole('img', { name: t.report.imagePreview.replace('{name}', name) });
    await expect(preview('dance.gif')).toBeVisible();
    await page.getByRole('button', { name: t.report.removeImage.replace('{name}', 'dance.gif') }).click();
    await expect(preview('dance.gif')).toHaveCount(0);
    await picker.setInputFiles([{ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('#!/bin/sh\necho hi\n') }]);
    await expect(page.getByText(t.report.errorCodes['-1401'])).toBeVisible();
    await expect(preview('photo.jpg')).toBeVisible();
    await expect(preview('shot.png')).toBeVisible();

    await page.getByLabel(t.report.comment, { exact: true }).fill('A banner covers the article.');
    await page.getByLabel(t.report.email, { exact: true }).fill(email);
    await page.getByLabel(t.report.checked).check();

    const accessibility = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(accessibility.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

    const sending = page.waitForResponse((answer) => answer.url().endsWith('/web/unicornpro/v1/reports'));
    await page.getByRole('button', { name: t.report.submit }).click();
    const answer = await sending;
    expect(answer.status()).toBe(200);
    const { reportId, images: kept } = await answer.json();
    expect(kept).toBe(2);
    await expect(page.getByRole('heading', { name: t.report.sentHeading })).toBeVisible();

    const folder = path.join(e2eVarDir, 'objects', 'reports', reportId);
    expect(existsSync(path.join(folder, '2.png'))).toBe(true);
    const photo = readFileSync(path.join(folder, '1.jpg'));
    expect(photo.includes(images.camera)).toBe(false);

    let row: Record<string, unknown> | undefined;
    await expect.poll(() => (row = exported(reportId))?.filters, { timeout: 15_000 }).toEqual([301, 308]);
    expect([row?.url, row?.email, row?.application, row?.os]).toEqual([
      'https://news.example/article/1',
      email,
      'safari',
      'mac',
    ]);
  });
}
