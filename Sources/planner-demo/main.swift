print("planner-demo: not yet built")
