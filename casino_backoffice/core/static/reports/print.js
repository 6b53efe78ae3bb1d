// A report's Print link prints the page, and a report's filter submits on change (a file of this site's own: the Content-Security-Policy allows no
// inline handler).
document.addEventListener("click", (event) => {
  const link = event.target.closest("a.print-link");
  if (link) {
    event.preventDefault();
    window.print();
  }
});

// A filter that submits its form when it changes (the report's room).
document.addEventListener("change", (event) => {
  if (event.target.matches("select.submit-on-change")) {
    event.target.form.submit();
  }
});
