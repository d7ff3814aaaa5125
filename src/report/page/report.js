/* netdp report page: reads the data written by `netdp report` (see data-schema.md) and draws it
   with Vega-Lite. Plain ES2019, no modules, no network: uses the globals vega, vegaLite, vegaEmbed.
   It only draws; every statistic comes precomputed in the data. */
(function () {
  'use strict';

  const PAPER_LABEL = 'paper formula: not an upper bound';
  const EMBED_ACTIONS = {export: true, source: false, compiled: false, editor: false};
  const BIG_ROWS = 2000; // more rows than this: the canvas renderer
  const KIND_COLORS = {
    'exact': '#2e7d32', 'upper-bound': '#1f77b4', 'cap-in-span': '#ff7f0e',
    'cap-undetermined': '#9467bd', 'paper-formula': '#d62728'
  };
  const SPARE_COLORS = ['#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
  const CONFIG = {
    font: 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif',
    legend: {labelLimit: 420, orient: 'bottom', direction: 'vertical'},
    axis: {labelFontSize: 11, titleFontSize: 12}
  };
  const pending = [];

  // ---- Status: 'rendered' once every chart is drawn, 'failed' (with the message) on any error
  function fail(err) {
    const message = (err && err.message) || String(err);
    document.documentElement.dataset.netdpStatus = 'failed';
    document.documentElement.dataset.netdpError = message;
    const status = document.getElementById('netdp-status');
    status.hidden = false;
    status.className = 'error';
    status.textContent = 'The report could not be drawn: ' + message;
    console.error(err);
  }

  function track(promise) {
    const settled = promise.catch(fail);
    pending.push(settled);
    return settled;
  }

  // ---- DOM and formatting helpers
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) {
      node.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
    });
    return node;
  }

  /** A number as shown in tables: at most 6 significant digits. */
  function fmt(x) {
    if (x === null || x === undefined) return '—';
    return typeof x === 'number' && !Number.isInteger(x) ? String(Number(x.toPrecision(6))) : String(x);
  }

  function fmtDelta(d) {
    return el('span', {class: 'nowrap'}, [d === null || d === undefined ? '—' : d.toExponential()]);
  }

  function pct(x) {
    return x === null || x === undefined ? '—' : (100 * x).toFixed(1) + '%';
  }

  function paperBadge() {
    return el('span', {class: 'badge paper'}, [PAPER_LABEL]);
  }

  function uniq(values) {
    return values.filter(function (v, i) { return values.indexOf(v) === i; });
  }

  function range(n) {
    return Array.from({length: n}, function (_, i) { return i; });
  }

  /** "ε (δ = 1e-5)" when every series shares δ. */
  function epsTitle(deltas, what) {
    const ds = uniq(deltas.filter(function (d) { return d !== null && d !== undefined; }));
    const base = what || 'ε';
    if (ds.length === 1) return base + ' (δ = ' + ds[0].toExponential() + ')';
    return base + (ds.length ? ' (δ differs per series, see the tables)' : '');
  }

  /** Log scale when all values are positive and span two decades or more, else linear (from zero unless told). */
  function epsScale(values, zero) {
    let lo = Infinity;
    let hi = -Infinity;
    values.forEach(function (v) {
      if (v !== null && v !== undefined) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    });
    return lo > 0 && lo <= hi && hi / lo >= 100 ? {type: 'log'} : {type: 'linear', zero: zero !== false};
  }

  function nodeLabel(data, index) {
    return typeof index === 'number' && data.graph && data.graph.labels ? data.graph.labels[index] : String(index);
  }

  /** Series name shown in every legend: the account name, flagged when it is not an upper bound. */
  function seriesName(name, valid) {
    return valid === false ? name + ' [' + PAPER_LABEL + ']' : name;
  }

  function legendFor(count, title) {
    return count > 1 ? {title: title || null} : null;
  }

  // ---- Charts: a figure with the chart container, a CSV button and a caption
  function toCsv(rows) {
    const columns = [];
    rows.forEach(function (r) {
      Object.keys(r).forEach(function (k) { if (columns.indexOf(k) < 0) columns.push(k); });
    });
    const cell = function (v) {
      if (v === null || v === undefined) return '';
      const s = String(v);
      return /[",\n\r]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
    };
    return [columns.join(',')].concat(rows.map(function (r) {
      return columns.map(function (c) { return cell(r[c]); }).join(',');
    })).join('\n') + '\n';
  }

  function download(filename, text) {
    const url = URL.createObjectURL(new Blob([text], {type: 'text/csv;charset=utf-8'}));
    const a = el('a', {href: url, download: filename});
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
  }

  function csvButton(name, getRows) {
    const button = el('button', {type: 'button'}, ['Download data (CSV)']);
    button.addEventListener('click', function () { download(name + '.csv', toCsv(getRows())); });
    return button;
  }

  /** Adds a figure; returns {chart, tools, draw(spec, rows)} where draw (re)renders the chart. */
  function figure(parent, name, caption) {
    const chart = el('div', {class: 'chart', 'data-chart': name});
    const tools = el('div', {class: 'chart-tools'});
    const fig = el('figure', {class: 'figure'}, [chart, tools]);
    if (caption) fig.appendChild(el('figcaption', {}, [caption]));
    parent.appendChild(fig);
    let rows = [];
    let result = null;
    tools.appendChild(csvButton(name, function () { return rows; }));
    function draw(spec, newRows) {
      rows = newRows;
      if (result) result.finalize();
      const full = Object.assign({config: CONFIG}, spec, {data: {values: rows}});
      const renderer = rows.length > BIG_ROWS ? 'canvas' : 'svg';
      return track(vegaEmbed(chart, full, {renderer: renderer, actions: EMBED_ACTIONS})
        .then(function (r) { result = r; return r; }));
    }
    return {chart: chart, tools: tools, draw: draw};
  }

  function addChart(parent, name, spec, rows, caption) {
    return figure(parent, name, caption).draw(spec, rows);
  }

  function section(main, id, title, intro) {
    const s = el('section', {id: id}, [el('h2', {}, [title])]);
    if (intro) s.appendChild(el('p', {}, [intro]));
    main.appendChild(s);
    return s;
  }

  function table(head, rows) {
    const t = el('table', {}, [
      el('thead', {}, [el('tr', {}, head.map(function (h) { return el('th', {}, [h]); }))]),
      el('tbody', {}, rows.map(function (r) {
        return el('tr', {}, r.map(function (c) {
          const isNum = typeof c === 'number';
          return el('td', isNum ? {class: 'num'} : {}, [isNum ? fmt(c) : c === null ? '—' : c]);
        }));
      }))
    ]);
    return el('div', {class: 'table-wrap'}, [t]);
  }

  function withBadge(text, flagged) {
    const span = el('span', {}, [text + ' ']);
    if (flagged) span.appendChild(paperBadge());
    return span;
  }

  function commandCell(command) {
    return command ? el('code', {class: 'command'}, [command]) : el('span', {class: 'muted'}, ['not recorded']);
  }

  // ---- Header: version, inputs, graph facts, parameters, notes and warnings
  function header(main, data) {
    const head = el('section', {id: 'overview'});
    head.appendChild(el('p', {class: 'muted'}, ['netdp ' + fmt(data.netdp_version) + ' · ' +
      data.inputs.length + ' input' + (data.inputs.length === 1 ? '' : 's')]));
    if (data.notes && data.notes.length) {
      head.appendChild(el('ul', {class: 'notes'}, data.notes.map(function (n) { return el('li', {}, [n]); })));
    }
    head.appendChild(el('h2', {}, ['Inputs']));
    head.appendChild(table(['file', 'kind', 'command line'], data.inputs.map(function (i) {
      return [el('code', {}, [i.file]), i.kind, commandCell(i.command)];
    })));
    if (data.graph) graphFacts(head, data.graph);
    parameters(head, data);
    warnings(head, data);
    main.appendChild(head);
  }

  function graphFacts(parent, g) {
    parent.appendChild(el('h2', {}, ['Graph']));
    const facts = [
      ['graph', g.spec], ['weights', g.weights], ['nodes', g.nodes], ['edges', g.edges],
      ['degree min / mean / max', fmt(g.degree_min) + ' / ' + fmt(g.degree_mean) + ' / ' + fmt(g.degree_max)],
      ['diameter', g.diameter === null ? 'disconnected graph' : g.diameter],
      ['spectral gap (1 − |λ₂| of W)', g.spectral_gap === null ? 'not computed' : g.spectral_gap]
    ];
    const dl = el('dl', {class: 'facts'});
    facts.forEach(function (f) {
      dl.appendChild(el('dt', {}, [f[0]]));
      dl.appendChild(el('dd', {}, [fmt(f[1])]));
    });
    parent.appendChild(dl);
  }

  function parameters(parent, data) {
    if (data.accounts.length) {
      parent.appendChild(el('h2', {}, ['Accounts']));
      parent.appendChild(table(
        ['account', 'method', 'bound', 'σ', 'δ', 'T (rounds)', 'threat model', 'nodes', 'pairs', 'local-DP ε', 'central-DP ε'],
        data.accounts.map(function (a) {
          return [withBadge(a.name, a.valid_bound === false), a.method, a.bound, a.sigma, fmtDelta(a.delta), a.rounds,
            a.threat_model, a.nodes, a.pairs, a.local_dp_epsilon, a.central_dp_epsilon];
        })));
    }
    if (data.compares.length) {
      parent.appendChild(el('h2', {}, ['Comparisons']));
      parent.appendChild(table(['comparison', 'nodes', 'T (rounds)', 'σ', 'α', 'local-DP ε', 'central-DP ε', 'accountants'],
        data.compares.map(function (c) {
          const accs = el('span', {}, []);
          c.accountants.forEach(function (name, i) {
            if (i > 0) accs.appendChild(document.createTextNode(', '));
            accs.appendChild(document.createTextNode(name));
            if (c.paper_formula.indexOf(name) >= 0) accs.append(' ', paperBadge());
          });
          return [c.name, c.nodes, c.rounds, c.sigma, c.alpha, c.local_dp_epsilon, c.central_dp_epsilon, accs];
        })));
    }
    if (data.training.length) {
      parent.appendChild(el('h2', {}, ['Training runs']));
      parent.appendChild(table(['run', 'directory', 'algorithm', 'σ', 'ε', 'δ', 'accountant', 'bound', 'final test accuracy', 'final test loss'],
        data.training.map(function (t) {
          return [withBadge(t.name, t.valid_bound === false), el('code', {}, [t.dir]), t.algorithm, t.sigma, t.epsilon, fmtDelta(t.delta),
            t.accountant, t.bound, t.final_test_accuracy, t.final_test_loss];
        })));
    }
  }

  function warnings(parent, data) {
    const items = [];
    data.accounts.concat(data.compares, data.training).forEach(function (x) {
      (x.warnings || []).forEach(function (w) { items.push(el('li', {}, [el('strong', {}, [x.name + ': ']), w])); });
    });
    if (!items.length) return;
    parent.appendChild(el('h2', {}, ['Warnings']));
    parent.appendChild(el('ul', {class: 'warnings'}, items));
  }

  // ---- ε by shortest-path distance: pre-aggregated boxes per account, ranges per accountant
  function referenceRows(series, local, central) {
    return [{layer: 'reference', series: series, reference: 'local DP', epsilon: local},
      {layer: 'reference', series: series, reference: 'central DP', epsilon: central}]
      .filter(function (r) { return r.epsilon !== null && r.epsilon !== undefined; });
  }

  /** The smallest ε a by-distance row draws: its min, or a reference line's value. */
  function lowestValue(row) {
    return row.layer === 'reference' ? row.epsilon : row.min;
  }

  /** The reference rules (colour: series, dash: which reference), each distinct value labelled once. */
  function referenceLayers() {
    const only = {filter: 'datum.layer === "reference"'};
    return [
      {transform: [only], mark: {type: 'rule', strokeWidth: 1.5},
        encoding: {y: {field: 'epsilon', type: 'quantitative'}, color: {field: 'series', type: 'nominal'},
          strokeDash: {field: 'reference', type: 'nominal', title: 'reference',
            scale: {domain: ['local DP', 'central DP'], range: [[6, 4], [2, 2]]}},
          tooltip: [{field: 'series', title: 'series'}, {field: 'reference'}, {field: 'epsilon', title: 'ε'}]}},
      {transform: [only, {aggregate: [{op: 'count', as: 'series_count'}], groupby: ['reference', 'epsilon']},
        {calculate: 'datum.reference + " ε = " + format(datum.epsilon, ".4~g")', as: 'label'}],
        mark: {type: 'text', align: 'right', baseline: 'bottom', dy: -2, fontSize: 10, color: '#444'},
        encoding: {y: {field: 'epsilon', type: 'quantitative'}, x: {value: 'width'}, text: {field: 'label'}}}
    ];
  }

  function distanceSection(main, data) {
    const accounts = data.accounts.filter(function (a) { return a.by_distance && a.by_distance.length; });
    if (!accounts.length && !data.compares.length) return;
    const s = section(main, 'distance', 'ε by shortest-path distance',
      'ε from an observer to a target, grouped by their distance in the graph. Dashed lines: the local-DP and central-DP ε.');
    if (accounts.length) distanceAccounts(s, accounts);
    data.compares.forEach(function (c, i) { distanceCompare(s, c, i); });
  }

  function distanceAccounts(parent, accounts) {
    const names = accounts.map(function (a) { return seriesName(a.name, a.valid_bound); });
    let rows = [];
    accounts.forEach(function (a, i) {
      rows = rows.concat(a.by_distance.map(function (b) { return Object.assign({layer: 'box', series: names[i]}, b); }),
        referenceRows(names[i], a.local_dp_epsilon, a.central_dp_epsilon));
    });
    const x = {field: 'distance', type: 'ordinal', title: 'shortest-path distance (hops)', axis: {labelAngle: 0}};
    const color = {field: 'series', type: 'nominal', scale: {domain: names}, legend: legendFor(names.length, 'account')};
    const yTitle = epsTitle(accounts.map(function (a) { return a.delta; }));
    const yScale = epsScale(rows.map(lowestValue));
    const y = function (f) { return {field: f, type: 'quantitative', title: yTitle, scale: yScale}; };
    const tooltip = [{field: 'series', title: 'account'}, {field: 'distance'}, {field: 'pairs'}, {field: 'min'}, {field: 'q1'},
      {field: 'median'}, {field: 'q3'}, {field: 'max'}, {field: 'mean'}];
    const box = function (mark, enc) {
      return {transform: [{filter: 'datum.layer === "box"'}], mark: mark,
        encoding: Object.assign({x: x, xOffset: {field: 'series', scale: {domain: names}}, color: color, tooltip: tooltip}, enc)};
    };
    const spec = {
      width: 'container', height: 340,
      layer: [
        box({type: 'rule'}, {y: y('min'), y2: {field: 'max'}}),
        box({type: 'bar', opacity: 0.55, stroke: null}, {y: y('q1'), y2: {field: 'q3'}}),
        box({type: 'tick', thickness: 2, color: '#222'}, {y: y('median'), color: {value: '#222'}}),
        box({type: 'point', shape: 'diamond', filled: true, size: 40}, {y: y('mean'), color: {value: '#fff'}, stroke: color})
      ].concat(referenceLayers())
    };
    addChart(parent, 'epsilon-by-distance', spec, rows,
      'Whiskers: min–max; box: first to third quartile; dark tick: median; diamond: mean.');
  }

  function distanceCompare(parent, c, index) {
    const label = function (a) { return c.paper_formula.indexOf(a) >= 0 ? a + ' [' + PAPER_LABEL + ']' : a; };
    const names = c.accountants.map(label);
    const b = c.by_distance;
    const rows = b.distance.map(function (d, i) {
      return {layer: 'range', series: label(b.accountant[i]), distance: d, pairs: b.pairs[i], min: b.min[i], mean: b.mean[i], max: b.max[i]};
    }).concat(referenceRows('reference', c.local_dp_epsilon, c.central_dp_epsilon));
    const x = {field: 'distance', type: 'ordinal', title: 'shortest-path distance (hops)', axis: {labelAngle: 0}};
    const color = {field: 'series', type: 'nominal', scale: {domain: names}, legend: legendFor(names.length, 'accountant')};
    const yScale = epsScale(rows.map(lowestValue));
    const y = function (f) { return {field: f, type: 'quantitative', title: 'ε', scale: yScale}; };
    const tooltip = [{field: 'series', title: 'accountant'}, {field: 'distance'}, {field: 'pairs'}, {field: 'min'}, {field: 'mean'}, {field: 'max'}];
    const rangeLayer = function (mark, enc) {
      return {transform: [{filter: 'datum.layer === "range"'}], mark: mark,
        encoding: Object.assign({x: x, xOffset: {field: 'series', scale: {domain: names}}, color: color, tooltip: tooltip}, enc)};
    };
    const refs = referenceLayers();
    refs[0].encoding.color = {value: '#555'};
    const spec = {
      width: 'container', height: 320,
      title: {text: c.name, subtitle: 'T = ' + c.rounds + ', σ = ' + c.sigma + ', α = ' + c.alpha, anchor: 'start'},
      layer: [
        rangeLayer({type: 'rule', strokeWidth: 2}, {y: y('min'), y2: {field: 'max'}}),
        rangeLayer({type: 'point', filled: true, size: 50}, {y: y('mean')})
      ].concat(refs)
    };
    addChart(parent, 'compare-by-distance-' + (index + 1), spec, rows, 'Line: min–max over the pairs at that distance; dot: mean.');
  }

  // ---- CDF of pairwise ε, with the share of pairs at the local-DP cap
  function cdfSection(main, data) {
    const accounts = data.accounts.filter(function (a) { return a.cdf && a.cdf.epsilon.length; });
    if (!accounts.length) return;
    const s = section(main, 'cdf', 'Distribution of pairwise ε', 'Share of the (observer, target) pairs whose ε is at most x.');
    const names = accounts.map(function (a) { return seriesName(a.name, a.valid_bound); });
    let rows = [];
    accounts.forEach(function (a, i) {
      rows = rows.concat(a.cdf.epsilon.map(function (e, j) { return {series: names[i], epsilon: e, fraction: a.cdf.fraction[j]}; }));
    });
    const spec = {
      width: 'container', height: 300,
      mark: {type: 'line', interpolate: 'step-after', point: {filled: true, size: 12}},
      encoding: {
        x: {field: 'epsilon', type: 'quantitative', title: epsTitle(accounts.map(function (a) { return a.delta; })),
          scale: epsScale(rows.map(function (r) { return r.epsilon; }), false)},
        y: {field: 'fraction', type: 'quantitative', title: 'share of pairs with ε ≤ x', axis: {format: '%'}, scale: {domain: [0, 1]}},
        color: {field: 'series', type: 'nominal', scale: {domain: names}, legend: legendFor(names.length, 'account')},
        tooltip: [{field: 'series', title: 'account'}, {field: 'epsilon', title: 'ε'}, {field: 'fraction', title: 'share of pairs', format: '.2%'}]
      }
    };
    addChart(s, 'epsilon-cdf', spec, rows);
    s.appendChild(table(['account', 'pairs', 'local-DP ε', 'share of pairs capped (their value is the cap: local DP, or the cap of the Rényi order used)'], accounts.map(function (a, i) {
      return [names[i], a.pairs, a.local_dp_epsilon, pct(a.capped_fraction)];
    })));
  }

  // ---- Heatmap of ε per (observer, target) cell, or per-observer mean/max when there is none
  function heatmapSection(main, data) {
    const accounts = data.accounts.filter(function (a) { return a.heatmap || (a.per_observer && a.per_observer.observer.length); });
    if (!accounts.length) return;
    const s = section(main, 'heatmap', 'ε per observer and target');
    accounts.forEach(function (a, i) {
      s.appendChild(el('h3', {}, [withBadge(a.name, a.valid_bound === false)]));
      if (a.heatmap) heatmap(s, a, i);
      else perObserver(s, data, a, i);
    });
  }

  function heatmap(parent, a, index) {
    const h = a.heatmap;
    const c = h.cells;
    const rows = [];
    for (let i = 0; i < c.row.length; i++) {
      if (c.epsilon_max[i] === null) continue;
      rows.push({row: c.row[i], col: c.col[i], observer: h.labels[c.row[i]], target: h.labels[c.col[i]],
        epsilon_max: c.epsilon_max[i], epsilon_mean: c.epsilon_mean[i], certificate: c.certificate[i], kinds: c.kinds[i]});
    }
    const side = h.size * Math.max(2, Math.min(16, Math.round(720 / h.size))); // whole pixels per cell: no seams
    const axis = function (field, title) {
      return {field: field, type: 'ordinal', title: title + (h.block > 1 ? ' block' : ''),
        scale: {domain: range(h.size)},
        axis: {labelExpr: 'cellLabels[datum.value]', labelOverlap: 'greedy', labelFontSize: h.size > 60 ? 8 : 10, ticks: h.size <= 60}};
    };
    const spec = {
      width: side, height: side,
      params: [{name: 'cellLabels', value: h.labels}],
      mark: {type: 'rect'},
      encoding: {
        x: axis('col', 'target'), y: axis('row', 'observer'),
        color: {field: 'epsilon_max', type: 'quantitative', title: epsTitle([a.delta], h.block > 1 ? 'largest ε' : 'ε'),
          scale: Object.assign({scheme: 'viridis'}, epsScale(rows.map(function (r) { return r.epsilon_max; }), false)),
          legend: {orient: 'right', direction: 'vertical'}},
        tooltip: [{field: 'observer'}, {field: 'target'}, {field: 'epsilon_max', title: 'ε max'},
          {field: 'epsilon_mean', title: 'ε mean'}, {field: 'kinds', title: 'certificates'}]
      }
    };
    const block = h.block > 1 ? 'Each cell is a block of up to ' + h.block + ' × ' + h.block + ' nodes, coloured by its largest ε. ' : '';
    addChart(parent, 'heatmap-' + (index + 1), spec, rows,
      'Rows: observer; columns: target; nodes in ' + h.order + ' order. ' + block + 'Blank cells: no pair.');
  }

  function perObserver(parent, data, a, index) {
    const p = a.per_observer;
    const rows = p.observer.map(function (o, i) {
      return {observer: nodeLabel(data, o), epsilon_mean: p.epsilon_mean[i], epsilon_max: p.epsilon_max[i]};
    }).sort(function (u, v) { return v.epsilon_max - u.epsilon_max || v.epsilon_mean - u.epsilon_mean; });
    rows.forEach(function (r, i) { r.rank = i + 1; });
    const why = a.nodes > 1000 ? a.nodes + ' nodes, more than the 1000 a heatmap is drawn for' : 'fewer than 2 observers';
    parent.appendChild(el('p', {}, ['No heatmap for this account (' + why + '): instead, each observer\'s mean and largest ε over its targets, observers sorted by their largest ε.']));
    const spec = {
      width: 'container', height: 280,
      transform: [{fold: ['epsilon_max', 'epsilon_mean'], as: ['statistic', 'epsilon']},
        {calculate: 'datum.statistic === "epsilon_max" ? "largest ε" : "mean ε"', as: 'statistic'}],
      mark: {type: 'point', filled: true, size: rows.length > 200 ? 8 : 30},
      encoding: {
        x: {field: 'rank', type: 'quantitative', title: 'observer rank (by largest ε)', scale: {domain: [1, Math.max(2, rows.length)]}},
        y: {field: 'epsilon', type: 'quantitative', title: epsTitle([a.delta]), scale: epsScale(rows.map(function (r) { return r.epsilon_mean; }))},
        color: {field: 'statistic', type: 'nominal', title: null, scale: {domain: ['largest ε', 'mean ε']}},
        tooltip: [{field: 'observer'}, {field: 'rank'}, {field: 'epsilon_max', title: 'ε max'}, {field: 'epsilon_mean', title: 'ε mean'}]
      }
    };
    addChart(parent, 'per-observer-' + (index + 1), spec, rows);
  }

  // ---- Graph drawing: nodes at the layout, coloured by ε from a chosen observer
  function graphSection(main, data) {
    const g = data.graph;
    const accounts = data.accounts.filter(function (a) { return a.rows && a.rows.observers.length; });
    if (!g || !g.layout || !accounts.length) return;
    const s = section(main, 'graph-drawing', 'ε from one observer',
      'Each node coloured by the ε the chosen observer (the red diamond) has about it; grey nodes: no pair. Choose the observer above the drawing.');
    const edges = edgeRows(g);
    const fig = figure(s, 'graph', 'Node positions: a force-directed layout (the axes have no meaning).');
    const accountSelect = el('select', {});
    accounts.forEach(function (a, i) { accountSelect.appendChild(el('option', {value: String(i)}, [seriesName(a.name, a.valid_bound)])); });
    const observerSelect = el('select', {});
    const controls = el('div', {class: 'chart-tools'});
    if (accounts.length > 1) controls.appendChild(el('label', {}, ['account', accountSelect]));
    controls.appendChild(el('label', {}, ['observer', observerSelect]));
    fig.chart.parentNode.insertBefore(controls, fig.chart);
    const redraw = function () {
      const a = accounts[Number(accountSelect.value)];
      const which = Number(observerSelect.value);
      const title = 'observer ' + nodeLabel(data, a.rows.observers[which]) + ' · ' + seriesName(a.name, a.valid_bound);
      fig.draw(graphSpec(g, a, title), edges.concat(nodeRows(data, g, a, which)));
    };
    const fillObservers = function () {
      const a = accounts[Number(accountSelect.value)];
      const previous = observerSelect.options.length ? observerSelect.selectedOptions[0].textContent : null;
      observerSelect.textContent = '';
      a.rows.observers.forEach(function (o, i) { observerSelect.appendChild(el('option', {value: String(i)}, [nodeLabel(data, o)])); });
      const keep = Array.prototype.findIndex.call(observerSelect.options, function (o) { return o.textContent === previous; });
      observerSelect.value = String(Math.max(0, keep));
    };
    accountSelect.addEventListener('change', function () { fillObservers(); redraw(); });
    observerSelect.addEventListener('change', redraw);
    fillObservers();
    redraw();
  }

  function edgeRows(g) {
    const e = g.edge_list || {source: [], target: []};
    return e.source.map(function (u, i) {
      const v = e.target[i];
      return {layer: 'edge', source: g.labels[u], target: g.labels[v], x: g.layout.x[u], y: g.layout.y[u], x2: g.layout.x[v], y2: g.layout.y[v]};
    });
  }

  function nodeRows(data, g, a, which) {
    const observer = a.rows.observers[which];
    const eps = a.rows.epsilon[which];
    const cert = a.rows.certificate[which];
    return g.layout.x.map(function (x, i) {
      return {layer: 'node', node: g.labels[i], x: x, y: g.layout.y[i], epsilon: eps[i],
        certificate: cert[i] === null ? null : data.certificate_kinds[cert[i]],
        role: i === observer ? 'observer' : eps[i] === null ? 'no pair' : 'target'};
    });
  }

  /** The ε colour domain is fixed per account so that switching observers keeps the colours comparable. */
  const epsDomains = new Map();
  function accountEpsDomain(a) {
    if (!epsDomains.has(a)) {
      let lo = Infinity;
      let hi = -Infinity;
      a.rows.epsilon.forEach(function (row) {
        row.forEach(function (v) { if (v !== null) { lo = Math.min(lo, v); hi = Math.max(hi, v); } });
      });
      epsDomains.set(a, lo < hi ? [lo, hi] : [0, Math.max(hi, 1)]);
    }
    return epsDomains.get(a);
  }

  function graphSpec(g, a, title) {
    const n = g.nodes;
    const pos = function (f) { return {field: f, type: 'quantitative', axis: null, scale: {domain: [-0.02, 1.02]}}; };
    const nodeSize = n > 500 ? 14 : n > 100 ? 40 : 110;
    const edgeCount = g.edge_list ? g.edge_list.source.length : 0;
    const of = function (test) { return [{filter: test}]; };
    const nodeTip = [{field: 'node'}, {field: 'role'}, {field: 'epsilon', title: 'ε'}, {field: 'certificate'}];
    const domain = accountEpsDomain(a);
    return {
      width: 640, height: 640, view: {stroke: null}, title: {text: title, anchor: 'start'},
      layer: [
        {transform: of('datum.layer === "edge"'), mark: {type: 'rule', color: '#8a8f98', strokeWidth: edgeCount > 2000 ? 0.4 : 1,
          opacity: edgeCount > 2000 ? 0.25 : 0.6, tooltip: false},
        encoding: {x: pos('x'), y: pos('y'), x2: {field: 'x2'}, y2: {field: 'y2'}}},
        {transform: of('datum.role === "no pair"'), mark: {type: 'circle', color: '#c4c8ce', size: nodeSize},
          encoding: {x: pos('x'), y: pos('y'), tooltip: nodeTip}},
        {transform: of('datum.role === "target"'), mark: {type: 'circle', size: nodeSize, opacity: 1, stroke: '#fff', strokeWidth: n > 500 ? 0 : 0.8},
          encoding: {x: pos('x'), y: pos('y'), tooltip: nodeTip,
            color: {field: 'epsilon', type: 'quantitative', title: epsTitle([a.delta]),
              scale: {scheme: 'viridis', domain: domain, type: epsScale(domain).type},
              legend: {orient: 'right', direction: 'vertical'}}}},
        {transform: of('datum.role === "observer"'), mark: {type: 'point', shape: 'diamond', filled: true, color: '#d62728',
          stroke: '#000', strokeWidth: 1.5, size: Math.max(150, nodeSize * 4), opacity: 1},
        encoding: {x: pos('x'), y: pos('y'), tooltip: nodeTip}}
      ]
    };
  }

  // ---- Certificate kinds: share of pairs per kind, one stacked bar per account
  function kindColors(kinds) {
    let spare = 0;
    return kinds.map(function (k) { return KIND_COLORS[k] || SPARE_COLORS[spare++ % SPARE_COLORS.length]; });
  }

  function certificateSection(main, data) {
    const accounts = data.accounts.filter(function (a) { return a.certificates; });
    if (!accounts.length) return;
    const s = section(main, 'certificates', 'Certificate kinds', 'How each pair\'s ε is certified: the share of pairs per kind.');
    const kinds = data.certificate_kinds;
    const names = accounts.map(function (a) { return seriesName(a.name, a.valid_bound); });
    const rows = [];
    accounts.forEach(function (a, i) {
      kinds.forEach(function (k, j) { rows.push({series: names[i], kind: k, kind_order: j, pairs: a.certificates[k] || 0}); });
    });
    const spec = {
      width: 'container', height: 34 * accounts.length,
      transform: [{joinaggregate: [{op: 'sum', field: 'pairs', as: 'total'}], groupby: ['series']},
        {calculate: 'datum.total > 0 ? datum.pairs / datum.total : 0', as: 'share'}],
      mark: {type: 'bar'},
      encoding: {
        y: {field: 'series', type: 'nominal', title: null, sort: names, axis: {labelLimit: 360}},
        x: {field: 'pairs', type: 'quantitative', stack: 'normalize', title: 'share of pairs', axis: {format: '%'}},
        color: {field: 'kind', type: 'nominal', title: 'certificate', scale: {domain: kinds, range: kindColors(kinds)}},
        order: {field: 'kind_order'},
        tooltip: [{field: 'series', title: 'account'}, {field: 'kind', title: 'certificate'}, {field: 'pairs'},
          {field: 'share', format: '.1%'}]
      }
    };
    addChart(s, 'certificates', spec, rows);
  }

  // ---- Audits: claimed ε against the empirical lower bound, per audited pair
  function auditSection(main, data) {
    const au = data.audits;
    if (!au || !au.file.length) return;
    const s = section(main, 'audits', 'Audits',
      'An audit estimates a lower bound on ε from attacks on the mechanism. A claimed ε below its empirical lower bound is a violation.');
    const rows = au.file.map(function (f, i) {
      return {pair: au.observer[i] + ' → ' + au.target[i] + ' (' + au.method[i] + ', ' + f + ')', file: f, method: au.method[i],
        observer: au.observer[i], target: au.target[i], claimed_epsilon: au.claimed_epsilon[i],
        empirical_epsilon_lower: au.empirical_epsilon_lower[i], claimed_mu: au.claimed_mu[i], empirical_mu_lower: au.empirical_mu_lower[i],
        verdict: au.verdict[i], confidence: au.confidence[i], trials: au.trials[i]};
    });
    const pairs = rows.map(function (r) { return r.pair; });
    const y = {field: 'pair', type: 'nominal', title: null, sort: pairs, axis: {labelLimit: 360}};
    const tooltip = [{field: 'pair'}, {field: 'claimed_epsilon', title: 'claimed ε'}, {field: 'empirical_epsilon_lower', title: 'empirical ε lower bound'},
      {field: 'claimed_mu', title: 'claimed μ'}, {field: 'empirical_mu_lower', title: 'empirical μ lower bound'}, {field: 'verdict'},
      {field: 'confidence'}, {field: 'trials'}];
    const color = {field: 'verdict', type: 'nominal', title: 'verdict', scale: verdictScale(uniq(au.verdict))};
    const spec = {
      width: 'container', height: 36 * rows.length,
      encoding: {y: y, tooltip: tooltip},
      layer: [
        {mark: {type: 'rule', color: '#999'}, encoding: {x: {field: 'empirical_epsilon_lower', type: 'quantitative'}, x2: {field: 'claimed_epsilon'}}},
        {transform: [{fold: ['claimed_epsilon', 'empirical_epsilon_lower'], as: ['value', 'epsilon']},
          {calculate: 'datum.value === "claimed_epsilon" ? "claimed ε" : "empirical lower bound"', as: 'value'}],
        mark: {type: 'point', filled: true, size: 110, opacity: 1, stroke: '#222', strokeWidth: 0.8},
        encoding: {x: {field: 'epsilon', type: 'quantitative', title: 'ε'}, color: color,
          shape: {field: 'value', type: 'nominal', title: null, scale: {domain: ['claimed ε', 'empirical lower bound'], range: ['circle', 'triangle-left']}}}}
      ]
    };
    addChart(s, 'audits', spec, rows, 'One row per audit: observer → target (method, file). Hover a mark for μ, confidence and trials.');
  }

  function verdictScale(verdicts) {
    const colorOf = function (v) {
      if (/violat|fail|exceed/i.test(v)) return '#d62728';
      if (/consistent|pass|ok|hold/i.test(v)) return '#2e7d32';
      return '#7f7f7f';
    };
    return {domain: verdicts, range: verdicts.map(colorOf)};
  }

  // ---- Training: each metric against the round, runs overlaid; final accuracy against ε
  const METRICS = [
    ['test_accuracy', 'test accuracy', '%'], ['test_loss', 'test loss', null], ['train_loss', 'train loss', null],
    ['consensus_distance', 'consensus distance', null], ['epsilon', null, null]
  ];

  function trainingSection(main, data) {
    const runs = data.training;
    if (!runs.length) return;
    const s = section(main, 'training', 'Training', 'Each metric against the training round; one colour per run.');
    const names = runs.map(function (r) { return seriesName(r.name, r.valid_bound); });
    const grid = el('div', {class: 'small-multiples'});
    s.appendChild(grid);
    METRICS.forEach(function (m) {
      const rows = [];
      runs.forEach(function (r, i) {
        const values = r.metrics[m[0]];
        if (!values) return;
        r.metrics.round.forEach(function (round, j) {
          if (values[j] !== null && values[j] !== undefined) rows.push({run: names[i], round: round, value: values[j]});
        });
      });
      if (rows.length) metricChart(grid, m, rows, names, runs);
    });
    accuracyVsEpsilon(s, runs, names);
  }

  function metricChart(parent, metric, rows, names, runs) {
    const title = metric[1] || epsTitle(runs.map(function (r) { return r.delta; }));
    const spec = {
      width: 'container', height: 220, title: {text: metric[1] || 'ε spent', anchor: 'start'},
      mark: {type: 'line', point: {filled: true, size: 14}},
      encoding: {
        x: {field: 'round', type: 'quantitative', title: 'round'},
        y: {field: 'value', type: 'quantitative', title: title, axis: metric[2] ? {format: metric[2]} : {},
          scale: {zero: metric[0] === 'epsilon'}},
        color: {field: 'run', type: 'nominal', scale: {domain: names}, legend: legendFor(names.length, 'run')},
        tooltip: [{field: 'run'}, {field: 'round'}, {field: 'value', title: title}]
      }
    };
    addChart(parent, 'training-' + metric[0].replace(/_/g, '-'), spec, rows);
  }

  function accuracyVsEpsilon(parent, runs, names) {
    const rows = [];
    runs.forEach(function (r, i) {
      if (r.final_test_accuracy !== null && r.epsilon !== null) {
        rows.push({run: names[i], epsilon: r.epsilon, delta: r.delta, final_test_accuracy: r.final_test_accuracy});
      }
    });
    if (runs.length < 2 || rows.length < 2) return;
    parent.appendChild(el('h3', {}, ['Final test accuracy against ε']));
    const scale = epsScale(rows.map(function (r) { return r.epsilon; }));
    const x = {field: 'epsilon', type: 'quantitative', title: epsTitle(rows.map(function (r) { return r.delta; })),
      scale: scale.type === 'log' ? {type: 'log', padding: 40} : scale};
    const y = {field: 'final_test_accuracy', type: 'quantitative', title: 'final test accuracy', axis: {format: '%'},
      scale: {zero: false, padding: 30}};
    const spec = {
      width: 'container', height: 280,
      encoding: {x: x, y: y, tooltip: [{field: 'run'}, {field: 'epsilon', title: 'ε'}, {field: 'final_test_accuracy', title: 'final test accuracy', format: '.2%'}]},
      layer: [
        {mark: {type: 'point', filled: true, size: 80, opacity: 1},
          encoding: {color: {field: 'run', type: 'nominal', scale: {domain: names}, legend: legendFor(rows.length, 'run')}}},
        {mark: {type: 'text', baseline: 'bottom', dy: -8, fontSize: 11}, encoding: {text: {field: 'run'}}}
      ]
    };
    addChart(parent, 'accuracy-vs-epsilon', spec, rows);
  }

  // ---- Main: build every section the data has, then report the status
  function main() {
    const data = JSON.parse(document.getElementById('netdp-data').textContent);
    const root = document.getElementById('netdp-report');
    document.getElementById('netdp-title').textContent = data.title;
    header(root, data);
    [distanceSection, cdfSection, heatmapSection, graphSection, certificateSection, auditSection, trainingSection]
      .forEach(function (build) {
        try {
          build(root, data);
        } catch (err) {
          fail(err); // the other sections are still drawn
        }
      });
    return Promise.all(pending).then(function () {
      if (document.documentElement.dataset.netdpStatus === 'failed') return;
      document.documentElement.dataset.netdpStatus = 'rendered';
      document.getElementById('netdp-status').hidden = true;
    });
  }

  window.addEventListener('error', function (e) { fail(e.error || e.message); });
  window.addEventListener('unhandledrejection', function (e) { fail(e.reason); });
  try {
    main().catch(fail);
  } catch (err) {
    fail(err);
  }
})();
