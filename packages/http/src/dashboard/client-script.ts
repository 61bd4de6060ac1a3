/**
 * The dashboard's only script, served as a static asset (the pages work without it): copy buttons
 * for secrets and snippets, and live job progress (polls the job's progress while it runs, then
 * reloads the page once to show its pages and errors). Plain ES2020, no dependencies.
 */
export const clientScript = `'use strict';
(function () {
  function announce(text) {
    var region = document.getElementById('announcer');
    if (region) { region.textContent = ''; setTimeout(function () { region.textContent = text; }, 50); }
  }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'visually-hidden';
    document.body.appendChild(area);
    area.select();
    try { document.execCommand('copy'); } finally { document.body.removeChild(area); }
    return Promise.resolve();
  }

  function setUpCopyButtons() {
    document.querySelectorAll('button[data-copy]').forEach(function (button) {
      var target = document.getElementById(button.getAttribute('data-copy'));
      if (!target) return;
      button.hidden = false;
      button.addEventListener('click', function () {
        copyText(target.textContent || '').then(function () {
          button.textContent = 'Copied';
          announce('Copied to the clipboard');
          setTimeout(function () { button.textContent = 'Copy'; }, 2000);
        }, function () { announce('Could not copy: select the text and copy it by hand'); });
      });
    });
  }

  function setUpLiveProgress() {
    var panel = document.querySelector('[data-progress-url]');
    if (!panel) return;
    var url = panel.getAttribute('data-progress-url');
    var fields = {};
    panel.querySelectorAll('[data-field]').forEach(function (element) { fields[element.getAttribute('data-field')] = element; });
    var bar = panel.querySelector('progress');
    function poll() {
      fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' }).then(function (response) {
        if (!response.ok) throw new Error('HTTP ' + response.status);
        return response.json();
      }).then(function (progress) {
        Object.keys(fields).forEach(function (name) {
          if (progress[name] !== undefined) fields[name].textContent = String(progress[name]);
        });
        if (bar) { bar.max = Math.max(progress.total, 1); bar.value = progress.completed; }
        if (progress.status !== 'scraping') {
          announce('The job is ' + progress.status);
          setTimeout(function () { window.location.reload(); }, 300);
          return;
        }
        setTimeout(poll, 1000);
      }).catch(function () { setTimeout(poll, 3000); });
    }
    setTimeout(poll, 500);
  }

  function start() {
    setUpCopyButtons();
    setUpLiveProgress();
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
`;
