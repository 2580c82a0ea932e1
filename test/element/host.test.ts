import { expect } from '@open-wc/testing';
import { ReactiveElement } from '@lit/reactive-element';
import * as lit from '@lit/reactive-element/decorators.js';
import { HostElement, property, state, type PropertyValues } from '../../src/shell/host.js';

/**
 * The shell's reactive base (src/shell/host.ts) keeps the contract of Lit's ReactiveElement
 * that the element and the panel's controllers rely on: what a host page sets before the
 * element is defined, attributes both ways, batched updates with the old values, and the
 * controller callbacks in Lit's order. The same suite runs against ReactiveElement itself,
 * so the contract is Lit's, not the port's idea of it (scripts/check-host.ts fences the
 * version).
 */

let serial = 0;
const tag = () => `test-host-${++serial}`;

const bases = [
  { name: 'src/shell/host.ts', Base: HostElement as unknown as typeof ReactiveElement, decorators: { property, state } },
  { name: "Lit's ReactiveElement", Base: ReactiveElement, decorators: { property: lit.property, state: lit.state } },
] as const;

for (const { name: baseName, Base, decorators: d } of bases) {
  describe(`the shell host's contract: ${baseName}`, () => {
    function makeClass() {
      const log: string[] = [];
      const changes: PropertyValues[] = [];
      class TestHost extends Base {
        @d.property({ attribute: 'base-url', reflect: true }) baseUrl = '';
        @d.property({ type: Boolean, reflect: true, attribute: 'open' }) isOpen = false;
        @d.property({ converter: { fromAttribute: (value: string | null) => (value == null ? undefined : value.split(',')) } })
        items?: string[];
        @d.property({ attribute: false }) callback?: () => void;
        @d.state() private count = 0;

        bump(): void {
          this.count++;
        }

        protected override willUpdate(changed: PropertyValues): void {
          log.push('willUpdate');
          changes.push(new Map(changed));
        }

        protected override update(changed: PropertyValues): void {
          super.update(changed);
          log.push('update');
        }

        protected override updated(): void {
          log.push('updated');
        }
      }
      return { TestHost, log, changes };
    }

    it('applies properties a host set before the element was defined, over the defaults', async () => {
      const name = tag();
      const el = document.createElement(name) as HTMLElement & { baseUrl: string; callback?: () => void; isOpen: boolean };
      const callback = () => {};
      el.baseUrl = 'https://early.example';
      el.callback = callback;
      document.body.append(el);
      const { TestHost, changes } = makeClass();
      customElements.define(name, TestHost);
      const host = el as unknown as InstanceType<typeof TestHost>;
      await host.updateComplete;
      expect(host.baseUrl).to.equal('https://early.example');
      expect(host.callback === callback).to.equal(true);
      expect(host.getAttribute('base-url')).to.equal('https://early.example');
      expect(changes.length).to.equal(1);
      expect(changes[0]!.has('callback')).to.equal(true);
      el.remove();
    });

    it('converts attributes to properties and reflects properties without echo', async () => {
      const name = tag();
      const { TestHost, changes } = makeClass();
      customElements.define(name, TestHost);
      const el = new TestHost();
      el.setAttribute('open', '');
      el.setAttribute('items', 'a,b');
      document.body.append(el);
      await el.updateComplete;
      expect(el.isOpen).to.equal(true);
      expect(el.items).to.deep.equal(['a', 'b']);
      el.removeAttribute('open');
      await el.updateComplete;
      expect(el.isOpen).to.equal(false);
      el.isOpen = true;
      el.baseUrl = 'https://x.example';
      await el.updateComplete;
      expect(el.getAttribute('open')).to.equal('');
      expect(el.getAttribute('base-url')).to.equal('https://x.example');
      el.isOpen = false;
      await el.updateComplete;
      expect(el.hasAttribute('open')).to.equal(false);
      el.removeAttribute('base-url');
      await el.updateComplete;
      expect(el.baseUrl).to.equal(null);
      expect(changes.length).to.equal(5);
      el.remove();
    });

    it('batches the changes of one task into one update, with the values before', async () => {
      const name = tag();
      const { TestHost, log, changes } = makeClass();
      customElements.define(name, TestHost);
      const el = new TestHost();
      document.body.append(el);
      await el.updateComplete;
      // Before the first update, every old value is undefined.
      expect(changes[0]!.get('baseUrl')).to.equal(undefined);
      expect(changes[0]!.has('baseUrl')).to.equal(true);
      log.length = 0;
      el.baseUrl = 'one';
      el.baseUrl = 'two';
      el.bump();
      el.isOpen = false; // unchanged: not recorded
      expect(await el.updateComplete).to.equal(true);
      expect(log).to.deep.equal(['willUpdate', 'update', 'updated']);
      const last = changes.at(-1)!;
      expect([...last.keys()].sort()).to.deep.equal(['baseUrl', 'count']);
      expect(last.get('baseUrl')).to.equal('');
      el.baseUrl = Number.NaN as unknown as string;
      await el.updateComplete;
      const before = changes.length;
      el.baseUrl = Number.NaN as unknown as string;
      await el.updateComplete;
      expect(changes.length).to.equal(before);
      el.remove();
    });

    it('calls controllers in Lit order and survives an update that throws', async () => {
      const name = tag();
      const { TestHost, log } = makeClass();
      customElements.define(name, TestHost);
      const el = new TestHost();
      el.addController({
        hostConnected: () => log.push('connected'),
        hostDisconnected: () => log.push('disconnected'),
        hostUpdate: () => log.push('hostUpdate'),
        hostUpdated: () => log.push('hostUpdated'),
      });
      document.body.append(el);
      await el.updateComplete;
      expect(log).to.deep.equal(['connected', 'willUpdate', 'hostUpdate', 'update', 'hostUpdated', 'updated']);
      const failing = {
        hostUpdate: () => {
          throw new Error('boom');
        },
      };
      el.addController(failing);
      const unhandled = new Promise<unknown>((resolve) =>
        window.addEventListener(
          'unhandledrejection',
          (e) => {
            e.preventDefault();
            resolve(e.reason);
          },
          { once: true },
        ),
      );
      el.baseUrl = 'fails';
      let threw = false;
      await el.updateComplete.catch(() => (threw = true));
      expect(threw).to.equal(true);
      el.removeController(failing);
      el.baseUrl = 'works';
      expect(await el.updateComplete).to.equal(true);
      expect(((await unhandled) as Error).message).to.equal('boom');
      el.remove();
      expect(log.at(-1)).to.equal('disconnected');
    });
  });
}
