// The widget's own sentences (bahdanau-widget.js): loading, its lazy start, and the reasons
// it cannot run. The rest of its words are the page's (strings.js).

export const WIDGET_STRINGS = {
  en: {
    loading: 'Loading the translator…',
    waiting: 'The translator loads when this figure is scrolled into view.',
    cspBlocked: (directive) =>
      `This page's Content-Security-Policy blocks the translator's engine (${directive}). ` +
      "The widget needs script-src 'unsafe-eval': Embind, which binds the C++ core to JavaScript, builds its functions with new Function.",
    badModel: 'The model attribute must be a known model name or an http(s) URL.',
    typeHere: 'Type an English sentence',
    // layout="slide" and "article" (widget/layout.js)
    slideLabel: 'Attention figure: the left and right arrow keys and the space bar step one word',
    stepsToggle: 'Four steps',
    captionsToggle: 'Explain each step',
  },
  zh: {
    loading: '正在加载翻译器…',
    waiting: '滚动到此处时才会加载翻译器。',
    cspBlocked: (directive) =>
      `本页的内容安全策略（CSP）阻止了翻译引擎（${directive}）。` +
      "组件需要 script-src 'unsafe-eval'：连接 C++ 核心与 JavaScript 的 Embind 用 new Function 生成函数。",
    badModel: 'model 属性必须是已知的模型名或 http(s) 地址。',
    typeHere: '输入英文句子',
    slideLabel: '注意力图：左右方向键和空格键逐词前后移动',
    stepsToggle: '四个步骤',
    captionsToggle: '说明每一步',
  },
};
