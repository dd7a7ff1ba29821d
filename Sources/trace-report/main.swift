print("trace-report: not yet built")
