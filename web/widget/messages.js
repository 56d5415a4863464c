// The widget's own words for a model file that is not where the model attribute points (a 404
// from web/lib's download), in English and Chinese: a name says which server lacks it, a path
// says that it was resolved against the host page. (Not the page's "not available yet" wording
// for the Transformer: a teacher's wrong path is a different problem.)
export const MODEL_MESSAGES = {
  en: {
    nameNotFound: (name, url) =>
      `The model "${name}" was not found at ${url} (HTTP 404): the server this widget comes from does not have it.`,
    pathNotFound: (url) =>
      `No model file was found at ${url} (HTTP 404). A path in the model attribute is resolved against this page, not against the widget; a model name such as model="en-fr" needs no path.`,
  },
  zh: {
    nameNotFound: (name, url) => `找不到模型“${name}”：${url} 返回 HTTP 404，提供这个组件的服务器上没有它。`,
    pathNotFound: (url) =>
      `在 ${url} 找不到模型文件（HTTP 404）。model 属性里的路径相对于本页解析，而不是相对于组件；像 model="en-fr" 这样的模型名不需要路径。`,
  },
};
