import { describe, expect, it } from 'vitest';
import { locationWidgetToken } from './delivery-location.ts';

describe("the storefront's location widget", () => {
  it('reads the widget token from the page markup', () => {
    expect(
      locationWidgetToken(
        '<span id="nav-global-location-data-modal-action" data-a-modal="{&quot;ajaxHeaders&quot;:{&quot;anti-csrftoken-a2z&quot;:&quot;tok=&quot;}}"></span>',
      ),
    ).toBe('tok=');
    expect(locationWidgetToken('<input type="hidden" name="glow-validation-token" value="abc123"/>')).toBe('abc123');
    expect(locationWidgetToken('<html><body>no widget</body></html>')).toBeUndefined();
  });
});
