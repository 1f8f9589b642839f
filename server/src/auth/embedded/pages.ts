/**
 * The embedded identity provider's own pages in the portal's look. They load nothing from the
 * internet (the provider's built-in pages import web fonts) and use only inline styles.
 */
const STYLE = `
  *{box-sizing:border-box}
  body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;
    font-family:"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;background:#f4f6f8;color:#1f2933}
  main{width:min(380px,92vw);background:#fff;border-radius:8px;box-shadow:0 2px 8px rgba(0,0,0,.12);padding:32px}
  h1{margin:0 0 4px;font-size:1.4rem;font-weight:600}
  p.sub{margin:0 0 24px;color:#52606d;font-size:.9rem}
  label{display:block;font-size:.8rem;font-weight:600;color:#52606d;margin:16px 0 6px}
  input{width:100%;padding:10px 12px;border:1px solid #cbd2d9;border-radius:4px;font-size:1rem}
  input:focus{outline:2px solid #1565c0;border-color:#1565c0}
  button{margin-top:24px;width:100%;padding:10px;border:0;border-radius:4px;background:#1565c0;color:#fff;
    font-size:.95rem;font-weight:600;letter-spacing:.02em;cursor:pointer}
  button:hover{background:#0d47a1}
  .error{margin-top:16px;padding:10px 12px;border-radius:4px;background:#fdecea;color:#8a1c1c;font-size:.9rem}
  .demo{margin-top:24px;padding:12px;border-radius:4px;background:#e8f1fb;color:#0d3c75;font-size:.85rem;line-height:1.5}
  .brand{display:flex;align-items:center;gap:10px;margin-bottom:20px}
  .logo{width:36px;height:36px;border-radius:6px;background:#1565c0;color:#fff;font-weight:700;font-size:.75rem;
    display:flex;align-items:center;justify-content:center}
`;

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

function page(title: string, productName: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} - ${escapeHtml(productName)}</title><style>${STYLE}</style></head>
<body><main><div class="brand"><div class="logo">CFS</div><strong>${escapeHtml(productName)}</strong></div>${body}</main></body></html>`;
}

export interface LoginPageOptions {
  productName: string;
  action: string;
  userName?: string;
  error?: string;
  demoUsers?: readonly string[];
}

export function loginPage(options: LoginPageOptions): string {
  const demo = options.demoUsers?.length
    ? `<div class="demo" data-testid="demo-notice"><strong>Demo mode.</strong> Sign in as ${options.demoUsers
        .map((user) => `<code>${escapeHtml(user)}</code>`)
        .join(', ')}; each password equals the user name.</div>`
    : '';
  const error = options.error ? `<div class="error" role="alert">${escapeHtml(options.error)}</div>` : '';
  return page(
    'Sign in',
    options.productName,
    `<h1>Sign in</h1><p class="sub">Use your portal account.</p>
<form method="post" action="${escapeHtml(options.action)}" autocomplete="on">
<label for="username">User name</label>
<input id="username" name="username" autocomplete="username" required autofocus value="${escapeHtml(options.userName ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
${error}<button type="submit">Sign in</button></form>${demo}`,
  );
}

export function messagePage(productName: string, title: string, message: string): string {
  return page(
    title,
    productName,
    `<h1>${escapeHtml(title)}</h1><p class="sub">${escapeHtml(message)}</p>
<p><a href="/user/login">Back to the portal</a></p>`,
  );
}

/** The provider's end-session confirmation: signs out at once, with a button if scripts are off. */
export function logoutPage(productName: string, form: string, nonce: string): string {
  return page(
    'Signing out',
    productName,
    `<h1>Signing out…</h1>${form}<button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>
<script nonce="${nonce}">const f=document.getElementById('op.logoutForm');const i=document.createElement('input');
i.type='hidden';i.name='logout';i.value='yes';f.appendChild(i);f.submit();</script>`,
  );
}
