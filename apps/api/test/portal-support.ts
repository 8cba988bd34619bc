import type { App } from '../src/index.js';

/** A browser's cookie jar, enough for `app.inject`: every cookie the portal sets, sent back on the next request. */
export class Jar {
  readonly cookies = new Map<string, string>();
  take(response: { cookies: { name: string; value: string }[] }) {
    for (const c of response.cookies) {
      if (c.value === '') this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }
  get header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** The hidden `_csrf` field of the first form of a page. */
export const csrfOf = (html: string): string => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

/** A portal client over `app.inject`: pages and form posts, with the cookies of one browser. */
export const portalClient = (app: App) => {
  const jar = new Jar();
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url, headers: { cookie: jar.header } });
    jar.take(res);
    return res;
  };
  const post = async (url: string, form: Record<string, string>) => {
    const res = await app.inject({
      method: 'POST',
      url,
      headers: { cookie: jar.header, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
    });
    jar.take(res);
    return res;
  };
  /** Exchanges a link's token the way the login page does. */
  const login = async (token: string) => {
    const page = await get('/portal/login');
    return post('/portal/login', { _csrf: csrfOf(page.body), token });
  };
  return { jar, get, post, login };
};

export const tokenOf = (url: string): string => new URL(url).hash.replace('#token=', '');
