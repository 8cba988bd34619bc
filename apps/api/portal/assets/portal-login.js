// The portal link carries its secret in the fragment (#token=…), which the browser never sends: this copies it into
// the sign-in form, removes it from the address bar and history, and submits the form once.
const token = new URLSearchParams(window.location.hash.slice(1)).get('token');
if (token) {
  history.replaceState(null, '', window.location.pathname);
  const form = document.getElementById('login');
  form.elements.namedItem('token').value = token;
  form.submit();
}
