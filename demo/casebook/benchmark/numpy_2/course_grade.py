# homework 20%, quizzes 10%, midterm 25%, project 15%, final exam 30%
weights = np.array([0.20, 0.10, 0.25, 0.30])
course_grade = (scores @ weights).round(1)
course_grade[:10]
