/** How a device platform reads (issue 29, finding 16: the licence page showed "android"). */

const PLATFORMS: Record<string, string> = { android: 'Android', ios: 'iOS', mac: 'macOS', macos: 'macOS', windows: 'Windows' };

/** A device's platform as its maker writes it ("android" is Android). */
export function platformName(platform: string | null | undefined): string | undefined {
  if (!platform) return undefined;
  return PLATFORMS[platform.trim().toLowerCase()] ?? platform;
}
